/**
 * A subscription plan in plain words, the same on the server's pages and in the widget:
 * "NGN 5,000.00 every month, 6 payments, next on 22 December 2026". Free of zod (the widget imports it at run
 * time); the amount comes formatted by the caller, who formats money its own way. Frequency ids and hours are
 * protocol.md 4.6's (shared/frequencies.ts holds the full records).
 */
export type PlanLanguage = 'en' | 'fr';

/** Hours per frequency id, and how each reads: English, then French. */
const FREQUENCY_WORDS: Record<number, { hours: number; en: string; fr: string }> = {
  1: { hours: 1, en: 'every hour', fr: 'toutes les heures' },
  2: { hours: 24, en: 'every day', fr: 'tous les jours' },
  3: { hours: 168, en: 'every week', fr: 'toutes les semaines' },
  4: { hours: 336, en: 'every 2 weeks', fr: 'toutes les 2 semaines' },
  5: { hours: 504, en: 'every 3 weeks', fr: 'toutes les 3 semaines' },
  6: { hours: 720, en: 'every month', fr: 'tous les mois' },
  7: { hours: 1440, en: 'every 2 months', fr: 'tous les 2 mois' },
  8: { hours: 2160, en: 'every 3 months', fr: 'tous les 3 mois' },
  9: { hours: 4320, en: 'every 6 months', fr: 'tous les 6 mois' },
  10: { hours: 8760, en: 'every year', fr: 'tous les ans' },
  11: { hours: 17520, en: 'every 2 years', fr: 'tous les 2 ans' },
};

/** The hours between two charges of a frequency, or undefined for an id that is not one of the eleven. */
export const frequencyHours = (frequencyId: number): number | undefined => FREQUENCY_WORDS[frequencyId]?.hours;

/** When the charge after one made at `from` falls due. */
export function nextChargeAt(frequencyId: number, from: Date): Date | undefined {
  const hours = frequencyHours(frequencyId);
  return hours === undefined ? undefined : new Date(from.getTime() + hours * 3_600_000);
}

export type PlanWords = {
  /** The amount of each charge, already formatted (`NGN 5,000.00`). */
  amount: string;
  frequencyId: number;
  /** Payments in all, the first included; null until cancelled. */
  numberOfPayments: number | null;
  /** The next charge, or null when none is left. */
  next: Date | null;
  language: PlanLanguage;
};

/** "NGN 5,000.00 every month, 6 payments, next on 22 December 2026" (or in French). */
export function describePlan({ amount, frequencyId, numberOfPayments, next, language }: PlanWords): string {
  const words = FREQUENCY_WORDS[frequencyId];
  const fr = language === 'fr';
  const parts = [`${amount} ${words ? words[language] : ''}`.trim()];
  if (numberOfPayments === null) parts.push(fr ? "jusqu'à annulation" : 'until cancelled');
  else if (numberOfPayments === 1) parts.push(fr ? '1 paiement' : '1 payment');
  else parts.push(fr ? `${numberOfPayments} paiements` : `${numberOfPayments} payments`);
  if (next) {
    const date = new Intl.DateTimeFormat(fr ? 'fr-FR' : 'en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(next);
    parts.push(fr ? `prochain le ${date}` : `next on ${date}`);
  }
  return parts.join(', ');
}
