import { useClient } from '@pipewright/sdk/ui';
import { useProjectAccess } from '../access';
import type { Person } from '../Assignees';

/**
 * The author of a new version: the user ("" sends none, and the server names the caller), or, for those the server
 * lets publish on behalf of others (administrators), anyone active.
 */
export function AuthorField({
  project,
  people,
  value,
  onChange,
}: {
  project: string;
  people: Person[];
  value: string;
  onChange(name: string): void;
}) {
  const client = useClient();
  const access = useProjectAccess(client, project);
  if (access && !access.publishForOthers)
    return (
      <label>
        Author
        <select value="" disabled title="Only administrators publish versions on behalf of another author">
          <option value="">Me ({access.userName})</option>
        </select>
      </label>
    );
  return (
    <label>
      Author
      <select value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">Me</option>
        {people.map((p) => (
          <option key={p.name} value={p.name}>
            {p.fullName ? `${p.fullName} (${p.name})` : p.name}
          </option>
        ))}
      </select>
    </label>
  );
}
