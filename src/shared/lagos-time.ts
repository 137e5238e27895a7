/**
 * Times as a customer in Nigeria reads them. Africa/Lagos is West Africa Time, UTC+01:00 all
 * year (no summer time since 1919), so a fixed offset is exact and needs no time-zone data.
 */
const LAGOS_OFFSET_MS = 3_600_000;

/** `2026-03-02T11:00:00.000+01:00`: the instant in Lagos time, its offset written out. */
export function lagosIso(date: Date): string {
  return `${shifted(date).slice(0, 23)}+01:00`;
}

/** `2026-03-02 11:00`: the date and minute in Lagos, for documents. */
export function lagosMinute(date: Date): string {
  return shifted(date).slice(0, 16).replace('T', ' ');
}

/** `2026-03-02`: the calendar day in Lagos. */
export function lagosDay(date: Date): string {
  return shifted(date).slice(0, 10);
}

/** The first instant of a Lagos calendar day (`2026-03-02` is 2026-03-01T23:00:00Z). */
export function lagosDayStart(day: string): Date {
  return new Date(Date.parse(`${day}T00:00:00.000Z`) - LAGOS_OFFSET_MS);
}

function shifted(date: Date): string {
  return new Date(date.getTime() + LAGOS_OFFSET_MS).toISOString();
}
