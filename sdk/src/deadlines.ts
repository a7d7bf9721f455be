// When a task is late: one rule for every place that says so (the dashboard's count, the overview's grid, the
// home screen's tasks), so no two of them ever disagree. A task is overdue when its end date has passed and its
// status's state is not done; due soon when it is unfinished and ends within DUE_SOON_DAYS.

/** How many days ahead an unfinished task counts as due soon. */
export const DUE_SOON_DAYS = 3;

const DAY_MS = 24 * 60 * 60 * 1000;

export interface Deadline {
  kind: 'overdue' | 'due-soon';
  /** Whole days past the end date (overdue) or left before it (due soon). */
  days: number;
  /** Said in words: "overdue by 2 days", "due in 1 day". */
  text: string;
}

/** The end date as a time, or null when missing or not a date (a bad value must not break a screen). */
export function endTime(endDate: unknown): number | null {
  if (typeof endDate !== 'string' || !endDate) return null;
  const time = Date.parse(endDate);
  return Number.isNaN(time) ? null : time;
}

/** Whether a task with this end date and status state is overdue at `now`. */
export function isOverdue(endDate: unknown, state: string | undefined, now: number): boolean {
  const end = endTime(endDate);
  return state !== 'done' && end !== null && end < now;
}

const daysWord = (days: number) => (days === 1 ? '1 day' : `${days} days`);

/** Whether a task is overdue or due soon, and by how much; null when neither (done, undated, or later). */
export function deadlineOf(endDate: unknown, state: string | undefined, now: number): Deadline | null {
  const end = endTime(endDate);
  if (state === 'done' || end === null) return null;
  if (end < now) {
    const days = Math.floor((now - end) / DAY_MS);
    return {
      kind: 'overdue',
      days,
      text: days ? `overdue by ${daysWord(days)}` : 'overdue by less than a day',
    };
  }
  if (end - now <= DUE_SOON_DAYS * DAY_MS) {
    const days = Math.floor((end - now) / DAY_MS);
    return { kind: 'due-soon', days, text: days ? `due in ${daysWord(days)}` : 'due within a day' };
  }
  return null;
}
