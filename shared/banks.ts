import { z } from 'zod';
import { successEnvelope } from './envelope.ts';
import { CATALOGUE_RECORD, catalogueRecordShape } from './catalogue.ts';

/**
 * protocol.md 4.10: the banks a customer may name when paying by transfer (`BankTransfer.bankcode`). Codes are
 * the Central Bank of Nigeria's; `countryId` is the ISO 3166 numeric code (566 Nigeria), as currency ids are
 * ISO 4217 numbers. Transfers are received at Sandbox Bank (999) in test mode.
 */
export const bankSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    bankCode: z.string(),
    countryId: z.number().int(),
    isMicrofinance: z.boolean(),
    isMortgage: z.boolean(),
    ussdBankCode: z.string().nullable(),
    logo: z.string().nullable(),
    ...catalogueRecordShape,
  })
  .meta({ id: 'Bank' });
export type Bank = z.infer<typeof bankSchema>;

const NIGERIA = 566;

const CATALOG = [
  ['Access Bank', '044'],
  ['Citibank Nigeria', '023'],
  ['Ecobank Nigeria', '050'],
  ['Fidelity Bank', '070'],
  ['First Bank of Nigeria', '011'],
  ['First City Monument Bank', '214'],
  ['Globus Bank', '103'],
  ['Guaranty Trust Bank', '058'],
  ['Jaiz Bank', '301'],
  ['Keystone Bank', '082'],
  ['Polaris Bank', '076'],
  ['Providus Bank', '101'],
  ['Stanbic IBTC Bank', '221'],
  ['Standard Chartered Bank', '068'],
  ['Sterling Bank', '232'],
  ['SunTrust Bank', '100'],
  ['Titan Trust Bank', '102'],
  ['Union Bank of Nigeria', '032'],
  ['United Bank for Africa', '033'],
  ['Unity Bank', '215'],
  ['Wema Bank', '035'],
  ['Zenith Bank', '057'],
  ['Sandbox Bank', '999'],
] as const;

export const BANKS: readonly Bank[] = CATALOG.map(([name, bankCode], index) => ({
  id: index + 1,
  name,
  bankCode,
  countryId: NIGERIA,
  isMicrofinance: false,
  isMortgage: false,
  ussdBankCode: null,
  logo: null,
  ...CATALOGUE_RECORD,
}));

export const banksResponseSchema = successEnvelope(z.array(bankSchema)).meta({ id: 'BanksResponse' });
