import { z } from 'zod';

/** Records the system made carry `-1` as their creator, as the gateway's own sample does. */
export const SYSTEM_USER = -1;

/** The catalogues (frequencies, link types, banks) are fixed, so their creation date is the date they were published. */
export const CATALOG_DATE = '2023-01-01T00:00:00.000';

/** The bookkeeping members every catalogue record carries, typed as the seed types them. */
export const catalogueRecordShape = {
  dateCreated: z.string(),
  dateUpdated: z.string().nullable(),
  dateDeleted: z.string().nullable(),
  createdBy: z.number().int().describe('-1: the system'),
  updatedBy: z.number().int().nullable(),
  deletedBy: z.number().int().nullable(),
};

export const CATALOGUE_RECORD = {
  dateCreated: CATALOG_DATE,
  dateUpdated: null,
  dateDeleted: null,
  createdBy: SYSTEM_USER,
  updatedBy: null,
  deletedBy: null,
} as const;
