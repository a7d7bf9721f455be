import { PayloadTooLarge } from './errors.js';

// Free-form user fields are stored as JSON and sent back whole: attrib and data with every GET /api/users/me,
// the web app's preferences with every page load. The limits are far above what the web app and AYON clients
// store (a theme, pinned projects, table layouts: a few KiB) and low enough that no one user can make the users
// list or the database heavy: a 10 MB value once stored would travel with every later answer about that user.

/** Bytes of JSON a user's web-app preferences (data.frontendPreferences) may take. */
export const FRONTEND_PREFERENCES_LIMIT = 64 * 1024;
/** Bytes of JSON a user's attributes may take (studios add attributes of their own). */
export const ATTRIB_LIMIT = 64 * 1024;
/** Bytes of JSON a user's data may take, preferences included (access groups grow with the projects). */
export const DATA_LIMIT = 256 * 1024;
/** Request bodies of the user routes that take free-form JSON: refused before they are even parsed. */
export const USER_BODY_LIMIT = 1024 * 1024;

const jsonBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value ?? {}), 'utf8');

function requireAtMost(what: string, value: unknown, limit: number): void {
  const size = jsonBytes(value);
  if (size > limit) throw new PayloadTooLarge(what, limit, size);
}

/** 413 when a user, as it would be stored, carries more free-form JSON than the limits allow. */
export function requireUserWithinLimits(user: { attrib: unknown; data: Record<string, unknown> }): void {
  requireAtMost('frontendPreferences value', user.data.frontendPreferences, FRONTEND_PREFERENCES_LIMIT);
  requireAtMost('user attrib', user.attrib, ATTRIB_LIMIT);
  requireAtMost('user data', user.data, DATA_LIMIT);
}
