import { useEffect, useRef, useState } from 'react';
import { Options } from '@pipewright/sdk/ui';
import type { Entity } from './model';

// Assigning people to tasks: a list of the studio's users with a box each, for one task or many at once (a box is
// half-ticked when only some of the tasks have that person), and the chips of the detail panel.

export interface Person {
  name: string;
  fullName: string | null;
}

export const personLabel = (people: Person[], name: string) =>
  people.find((p) => p.name === name)?.fullName || name;

/** How many of the tasks have this person: all, some or none of them. */
function share(tasks: Entity[], name: string): 'all' | 'some' | 'none' {
  const count = tasks.filter((t) => t.assignees.includes(name)).length;
  return count === 0 ? 'none' : count === tasks.length ? 'all' : 'some';
}

/** The people list that opens in an Assignees cell; each tick assigns or unassigns at once. */
export function AssigneePicker({
  people,
  tasks,
  onToggle,
  onClose,
}: {
  people: Person[];
  tasks: Entity[];
  onToggle(name: string, assign: boolean): void;
  onClose(): void;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [text, setText] = useState('');
  useEffect(() => {
    // Closes on a click anywhere else.
    const away = (event: MouseEvent) => !box.current?.contains(event.target as Node) && onClose();
    document.addEventListener('mousedown', away);
    return () => document.removeEventListener('mousedown', away);
  }, [onClose]);
  const wanted = text.toLowerCase();
  const shown = people.filter((p) => `${p.name} ${p.fullName ?? ''}`.toLowerCase().includes(wanted));
  const what = tasks.length === 1 ? tasks[0]!.name : `${tasks.length} tasks`;
  return (
    <div
      ref={box}
      className="pwo-assignee-picker"
      role="dialog"
      aria-label={`Assignees of ${what}`}
      onKeyDown={(e) => e.key === 'Escape' && onClose()}
      onClick={(e) => e.stopPropagation()}
      onDoubleClick={(e) => e.stopPropagation()}
    >
      <input
        type="search"
        aria-label="Find a person"
        placeholder="Find a person…"
        autoFocus
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
      <ul>
        {shown.map((person) => {
          const state = share(tasks, person.name);
          return (
            <li key={person.name}>
              <label>
                <input
                  type="checkbox"
                  checked={state === 'all'}
                  ref={(input) => {
                    if (input) input.indeterminate = state === 'some';
                  }}
                  onChange={() => onToggle(person.name, state !== 'all')}
                />{' '}
                {person.fullName || person.name} <small className="muted">{person.name}</small>
              </label>
            </li>
          );
        })}
        {shown.length === 0 && <li className="muted">Nobody matches.</li>}
      </ul>
      <button type="button" onClick={onClose}>
        Done
      </button>
    </div>
  );
}

/** The detail panel's assignees: a chip per person with a way to unassign, and a menu to assign someone. */
export function AssigneeChips({
  task,
  people,
  onToggle,
}: {
  task: Entity;
  people: Person[];
  onToggle(name: string, assign: boolean): void;
}) {
  const others = people.filter((p) => !task.assignees.includes(p.name));
  return (
    <div className="pwo-assignees" role="group" aria-label="Assignees">
      {task.assignees.length === 0 && <span className="muted">Nobody is assigned yet.</span>}
      {task.assignees.map((name) => (
        <span key={name} className="pw-badge pwo-tag">
          {personLabel(people, name)}{' '}
          <button
            type="button"
            className="pwo-chip-remove"
            aria-label={`Unassign ${personLabel(people, name)}`}
            onClick={() => onToggle(name, false)}
          >
            ✕
          </button>
        </span>
      ))}
      {others.length > 0 && (
        <select
          aria-label="Assign someone"
          value=""
          onChange={(e) => e.target.value && onToggle(e.target.value, true)}
        >
          <option value="">Assign someone…</option>
          <Options items={others} value={(p) => p.name} label={(p) => p.fullName || p.name} />
        </select>
      )}
    </div>
  );
}
