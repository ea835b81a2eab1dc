import { en, type Catalog, type MessageKey } from './en.ts';

export type { MessageKey };
export type Language = 'en' | 'fr';

/**
 * English ships with the page; other catalogs are fetched only by the customers who need them. Messages added later
 * (the payment views', `payment-messages.ts`) are looked up after the catalog.
 */
const CATALOGS: Record<Language, () => Promise<Catalog>> = {
  en: async () => en,
  fr: async () => (await import('./fr.ts')).fr,
};

const added: Record<Language, Partial<Record<MessageKey, string>>> = { en: {}, fr: {} };

/** Messages of views loaded after the first screen, in every language: called by the module that holds them. */
export function addMessages(messages: Record<Language, Partial<Record<MessageKey, string>>>): void {
  for (const language of ['en', 'fr'] as const) Object.assign(added[language], messages[language]);
}

/** The language to use for a BCP 47 tag: French for any `fr-*`, English otherwise. */
export function languageOf(locale: string | undefined): Language {
  return locale?.toLowerCase().startsWith('fr') ? 'fr' : 'en';
}

/**
 * Messages and `Intl` formatting for one locale. Components receive it through context, so switching the
 * `locale` attribute re-renders every part of the checkout at once.
 */
export class Localizer {
  readonly language: Language;
  readonly #catalog: Catalog;
  readonly #money = new Map<string, Intl.NumberFormat>();
  readonly #plural: Intl.PluralRules;

  /** Synchronous construction uses the English catalog; `Localizer.load` fetches the right one first. */
  constructor(
    readonly locale: string,
    catalog: Catalog = en,
  ) {
    this.language = catalog === en ? 'en' : languageOf(locale);
    this.#catalog = catalog;
    this.#plural = new Intl.PluralRules(locale);
  }

  static async load(locale: string): Promise<Localizer> {
    return new Localizer(locale, await CATALOGS[languageOf(locale)]());
  }

  t(key: MessageKey, values: Record<string, string | number> = {}): string {
    const message = (this.#catalog as Partial<Record<MessageKey, string>>)[key] ?? added[this.language][key] ?? key;
    return message.replace(/\{(\w+)\}/g, (match, name: string) => {
      const value = values[name];
      return value === undefined ? match : typeof value === 'number' ? this.number(value) : value;
    });
  }

  /** Picks the `one` or `other` message for a count, the way the locale's plural rules say. */
  plural(count: number, one: MessageKey, other: MessageKey): string {
    return this.t(this.#plural.select(count) === 'one' ? one : other, { count });
  }

  /** Wire amounts are major units (`5800.5`); the currency decides the decimals. */
  money(amount: number, currency: string): string {
    let format = this.#money.get(currency);
    if (!format) {
      format = new Intl.NumberFormat(this.locale, { style: 'currency', currency });
      this.#money.set(currency, format);
    }
    return format.format(amount);
  }

  number(value: number): string {
    return new Intl.NumberFormat(this.locale).format(value);
  }

  time(date: Date): string {
    return new Intl.DateTimeFormat(this.locale, { hour: 'numeric', minute: '2-digit' }).format(date);
  }

  dateTime(date: Date): string {
    return new Intl.DateTimeFormat(this.locale, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
  }

  /** `mm:ss`, or `h:mm:ss` past an hour, with the locale's digits. */
  countdown(milliseconds: number): string {
    const total = Math.max(0, Math.ceil(milliseconds / 1000));
    const hours = Math.floor(total / 3600);
    const pad = new Intl.NumberFormat(this.locale, { minimumIntegerDigits: 2 });
    const minutes = pad.format(Math.floor((total % 3600) / 60));
    const seconds = pad.format(total % 60);
    return hours > 0 ? `${this.number(hours)}:${minutes}:${seconds}` : `${minutes}:${seconds}`;
  }
}

/** The browser's preferred locale, the default when the `locale` attribute is absent. */
export function browserLocale(): string {
  return navigator.languages?.[0] ?? navigator.language ?? 'en';
}
