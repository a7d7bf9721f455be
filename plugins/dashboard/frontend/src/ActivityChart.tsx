// The project's changes per day as columns, today last, the busiest day full height. The server sends counts as
// they are, or scaled so the busiest day is 100 when some day had more than 100.

const dayName = (daysAgo: number) => {
  if (daysAgo === 0) return 'today';
  if (daysAgo === 1) return 'yesterday';
  const day = new Date(Date.now() - daysAgo * 24 * 60 * 60 * 1000);
  return day.toLocaleDateString(undefined, { month: 'short', day: 'numeric' });
};

export function ActivityChart({ days }: { days: number[] }) {
  const busiest = Math.max(0, ...days);
  const scaled = busiest >= 100;
  const active = days.filter((value) => value > 0).length;
  const summary =
    active === 0
      ? `No changes in the last ${days.length} days`
      : `Changes on ${active} of the last ${days.length} days`;
  const describe = (value: number) =>
    value === 0
      ? 'no changes'
      : scaled
        ? `${value}% of the busiest day`
        : `${value} change${value > 1 ? 's' : ''}`;
  return (
    <div className="pwd-activity" role="img" aria-label={summary}>
      {days.map((value, i) => (
        <span key={i} className="pwd-day" title={`${dayName(days.length - 1 - i)}: ${describe(value)}`}>
          <span
            className="pwd-day-bar"
            style={{ height: value ? `${Math.max(4, (value / busiest) * 100)}%` : '1px' }}
          />
        </span>
      ))}
    </div>
  );
}
