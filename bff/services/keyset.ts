import { invalid } from '../errors.ts';

/**
 * Keyset paging shared by the operations lists: a page is read with one row more than asked, which says whether
 * another follows; an export walks the same order a batch at a time, so its memory does not grow with the rows.
 */
export type Read<R, P> = (limit: number, after?: P) => Promise<R[]>;

/** The rows an export reads per statement: enough to stream fast, few enough that memory stays flat. */
export const EXPORT_BATCH = 1000;

export async function keysetPage<R, P>(read: Read<R, P>, limit: number, after: P | undefined, positionOf: (row: R) => P): Promise<{ items: R[]; next: P | null }> {
  const rows = await read(limit + 1, after);
  const more = rows.length > limit;
  const items = more ? rows.slice(0, limit) : rows;
  const last = items.at(-1);
  return { items, next: more && last ? positionOf(last) : null };
}

export async function* keysetWalk<R, P>(read: Read<R, P>, positionOf: (row: R) => P): AsyncGenerator<R> {
  let after: P | undefined;
  for (;;) {
    const rows = await read(EXPORT_BATCH, after);
    yield* rows;
    if (rows.length < EXPORT_BATCH) return;
    after = positionOf(rows.at(-1)!);
  }
}

export function checkDateRange(range: { from?: Date | undefined; to?: Date | undefined }): void {
  if (range.from && range.to && range.from >= range.to) throw invalid('from must be earlier than to.', undefined, 'invalid_date_range');
}
