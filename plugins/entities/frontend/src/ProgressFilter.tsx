import { DUE_SOON_DAYS, Options } from '@pipewright/sdk/ui';
import { PROGRESS_CHOICES, type Progress } from './progress';

/** The toolbar's choice of tasks by progress: overdue, due soon, done. */
export function ProgressFilter({ value, onChange }: { value: Progress; onChange(value: Progress): void }) {
  return (
    <select
      aria-label="Progress filter"
      title={`Overdue: past the end date and not done. Due soon: ending within ${DUE_SOON_DAYS} days.`}
      value={value}
      onChange={(e) => onChange(e.target.value as Progress)}
    >
      <option value="">Any progress</option>
      <Options items={PROGRESS_CHOICES} value={(choice) => choice.value} label={(choice) => choice.label} />
    </select>
  );
}
