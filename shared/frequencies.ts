import { z } from 'zod';
import { CATALOGUE_RECORD, catalogueRecordShape } from './catalogue.ts';
import { successEnvelope } from './envelope.ts';

/** protocol.md 4.6: the eleven link frequencies, exactly and in this order. */
const CATALOG = [
  [1, 'Hourly', 1, 0],
  [2, 'Daily', 24, 1],
  [3, 'Weekly', 168, 7],
  [4, 'Bi-Weekly', 336, 14],
  [5, 'Every 3 Weeks', 504, 21],
  [6, 'Monthly', 720, 30],
  [7, 'Bi-Monthly', 1440, 60],
  [8, 'Every 3 Months', 2160, 90],
  [9, 'Every 6 Months', 4320, 180],
  [10, 'Yearly', 8760, 365],
  [11, 'Bi-Yearly', 17520, 730],
] as const;

export const frequencySchema = z
  .object({
    hours: z.number().int(),
    days: z.number().int(),
    name: z.string(),
    description: z.string(),
    isActive: z.boolean().nullable(),
    id: z.number().int(),
    ...catalogueRecordShape,
  })
  .meta({ id: 'Frequency' });
export type Frequency = z.infer<typeof frequencySchema>;

export const FREQUENCIES: readonly Frequency[] = CATALOG.map(([id, name, hours, days]) => ({
  hours,
  days,
  name,
  description: name,
  isActive: true,
  id,
  ...CATALOGUE_RECORD,
}));

export function findFrequency(id: number): Frequency | undefined {
  return FREQUENCIES.find((frequency) => frequency.id === id);
}

export const frequenciesResponseSchema = successEnvelope(z.array(frequencySchema)).meta({ id: 'FrequenciesResponse' });
