import { exactTime, whenText } from './time.js';

/** A time as screens show it: short and relative ("5 min ago"), the exact time in its title. */
export function When({ at, className }: { at: string; className?: string }) {
  return (
    <time className={className} dateTime={at} title={exactTime(at)}>
      {whenText(at)}
    </time>
  );
}
