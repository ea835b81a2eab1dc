/** protocol.md timestamps: ISO 8601 in UTC, fractional seconds, no zone designator (`2026-11-22T10:15:30.123`). */
export function formatTimestamp(date: Date): string {
  return date.toISOString().slice(0, -1);
}

/** Reads a protocol timestamp back as the UTC instant it names. */
export function parseTimestamp(text: string): Date {
  return new Date(text.endsWith('Z') ? text : `${text}Z`);
}
