// HISTORY_RETENTION_DAYS: how long field history is kept. Unset (or 0) keeps it for good, as studios that answer
// for their deliveries need; a number of days removes older changes, checked at start and every hour.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The days history is kept, or null to keep it for good; anything but a whole number of days is refused. */
export function retentionDays(value: string | undefined): number | null {
  if (value === undefined || value.trim() === '' || value.trim() === '0') return null;
  if (!/^\d+$/.test(value.trim()))
    throw new Error(
      `HISTORY_RETENTION_DAYS must be a whole number of days (0 keeps history for good), not "${value}"`,
    );
  return Number(value);
}

/** Remove what is past the retention now and every hour; answers how to stop. */
export function keepFor(
  days: number,
  prune: (cutoff: Date) => Promise<unknown>,
  onError: (error: unknown) => void,
) {
  const run = () => void prune(new Date(Date.now() - days * DAY)).catch(onError);
  run();
  const timer = setInterval(run, HOUR);
  timer.unref();
  return () => clearInterval(timer);
}
