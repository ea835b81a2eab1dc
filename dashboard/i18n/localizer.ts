import { en, type Catalogue, type MessageKey } from './en.ts';

export type { MessageKey };
export type Language = 'en' | 'fr';
export const LANGUAGES: readonly Language[] = ['en', 'fr'];

/** French for any `fr-*`, English otherwise. */
export function languageOf(locale: string | undefined): Language {
  return locale?.toLowerCase().startsWith('fr') ? 'fr' : 'en';
}

/** The browser's first preferred locale. */
export function browserLocale(): string {
  return navigator.languages?.[0] ?? navigator.language ?? 'en';
}

/** The locale the dashboard formats with for a language: the browser's own when it speaks that language. */
export function localeFor(language: Language): string {
  const preferred = (navigator.languages ?? [navigator.language]).find((tag) => languageOf(tag) === language);
  return preferred ?? (language === 'fr' ? 'fr-FR' : 'en-NG');
}

/** Words and `Intl` formatting for one locale. English ships with the shell; French is its own chunk. */
export class Localizer {
  readonly language: Language;
  readonly #catalogue: Catalogue;
  readonly #plural: Intl.PluralRules;
  readonly #money = new Map<string, Intl.NumberFormat>();

  constructor(
    readonly locale: string,
    catalogue: Catalogue = en,
  ) {
    this.#catalogue = catalogue;
    this.language = catalogue === en ? 'en' : languageOf(locale);
    this.#plural = new Intl.PluralRules(locale);
  }

  static async load(locale: string): Promise<Localizer> {
    return new Localizer(locale, languageOf(locale) === 'fr' ? (await import('./fr.ts')).fr : en);
  }

  t(key: MessageKey, values: Record<string, string | number> = {}): string {
    return this.#catalogue[key].replace(/\{(\w+)\}/g, (match, name: string) => {
      const value = values[name];
      return value === undefined ? match : typeof value === 'number' ? this.number(value) : value;
    });
  }

  plural(count: number, one: MessageKey, other: MessageKey): string {
    return this.t(this.#plural.select(count) === 'one' ? one : other, { count });
  }

  #format(currency: string): Intl.NumberFormat {
    let format = this.#money.get(currency);
    if (!format) {
      format = new Intl.NumberFormat(this.locale, { style: 'currency', currency });
      this.#money.set(currency, format);
    }
    return format;
  }

  /** A decimal string or number in major units (`5000.00`), in its currency's format. */
  money(amount: string | number, currency: string): string {
    return this.#format(currency).format(Number(amount));
  }

  /** An amount in minor units (kobo, cents): the currency's own number of decimals decides. */
  moneyMinor(amountMinor: number, currency: string): string {
    const digits = this.#format(currency).resolvedOptions().maximumFractionDigits ?? 2;
    return this.#format(currency).format(amountMinor / 10 ** digits);
  }

  number(value: number): string {
    return new Intl.NumberFormat(this.locale).format(value);
  }

  percent(value: number): string {
    return new Intl.NumberFormat(this.locale, { style: 'percent', maximumFractionDigits: 1 }).format(value);
  }

  dateTime(value: string | Date): string {
    return new Intl.DateTimeFormat(this.locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(value));
  }
}
