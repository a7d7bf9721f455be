// How screens write times: "just now", "5 min ago", "14:05", "yesterday 14:05", "3 Mar"; the exact time in a title.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const clock = (date: Date) => date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });

/** A short, relative time; the exact one belongs in a title. */
export function whenText(iso: string, now = Date.now()): string {
  const date = new Date(iso);
  const ago = now - date.getTime();
  if (ago < MINUTE) return 'just now';
  if (ago < HOUR) return `${Math.floor(ago / MINUTE)} min ago`;
  const today = new Date(now);
  if (date.toDateString() === today.toDateString()) return clock(date);
  const yesterday = new Date(now - 24 * HOUR);
  if (date.toDateString() === yesterday.toDateString()) return `yesterday ${clock(date)}`;
  const sameYear = date.getFullYear() === today.getFullYear();
  return date.toLocaleDateString(undefined, {
    day: 'numeric',
    month: 'short',
    ...(sameYear ? {} : { year: 'numeric' }),
  });
}

/** The exact time, for a title. */
export const exactTime = (iso: string) => new Date(iso).toLocaleString();
