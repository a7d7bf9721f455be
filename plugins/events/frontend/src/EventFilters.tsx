import { useEffect, useState } from 'react';
import { Options } from '@pipewright/sdk/ui';
import { STATUSES, type EventFilter } from './events';

/** Topic prefix, status and project: typing in the topic waits for a pause before the list reloads. */
export function EventFilters({
  value,
  projects,
  onChange,
}: {
  value: EventFilter;
  projects: string[];
  onChange(filter: EventFilter): void;
}) {
  const [topic, setTopic] = useState(value.topic);
  const [project, setProject] = useState(value.project);

  useEffect(() => {
    if (topic === value.topic && project === value.project) return;
    const timer = setTimeout(() => onChange({ ...value, topic, project }), 300);
    return () => clearTimeout(timer);
  }, [topic, project, value, onChange]);

  const active = value.topic || value.status || value.project;
  return (
    <form
      className="ev-filters"
      role="search"
      aria-label="Filter events"
      onSubmit={(e) => e.preventDefault()}
    >
      <label>
        Topic starts with
        <input
          value={topic}
          placeholder="entity.folder"
          onChange={(e) => setTopic(e.target.value)}
          spellCheck={false}
        />
      </label>
      <label>
        Status
        <select
          value={value.status}
          onChange={(e) => onChange({ ...value, topic, project, status: e.target.value })}
        >
          <option value="">Any status</option>
          <Options items={STATUSES} value={(status) => status} label={(status) => status.replace('_', ' ')} />
        </select>
      </label>
      <label>
        Project
        <input
          value={project}
          list="ev-project-names"
          placeholder="Any project"
          onChange={(e) => setProject(e.target.value)}
          spellCheck={false}
        />
        <datalist id="ev-project-names">
          {projects.map((name) => (
            <option key={name} value={name} />
          ))}
        </datalist>
      </label>
      {active && (
        <button
          type="button"
          onClick={() => {
            setTopic('');
            setProject('');
            onChange({ topic: '', status: '', project: '' });
          }}
        >
          Clear filters
        </button>
      )}
    </form>
  );
}
