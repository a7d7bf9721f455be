import type { Deadline } from '@pipewright/sdk/ui';
import './progress.css';

/** "Overdue" or "Due soon" beside a task's name, in colour, with how late or how near in its title. */
export function DeadlineMark({ deadline }: { deadline: Deadline | null }) {
  if (!deadline) return null;
  const overdue = deadline.kind === 'overdue';
  const said = deadline.text.charAt(0).toUpperCase() + deadline.text.slice(1);
  return (
    <span className={`pwo-due ${overdue ? 'pwo-due-overdue' : 'pwo-due-soon'}`} title={said}>
      {overdue ? 'Overdue' : 'Due soon'}
    </span>
  );
}
