/**
 * A stored time as the API answers it: ISO 8601 in UTC with milliseconds. Takes what the database driver gives
 * (a Date, or text for a timestamptz read raw) as well as a Date or milliseconds of the addon's own.
 */
export function isoTime(value: Date | string | number): string {
  return new Date(value).toISOString();
}
