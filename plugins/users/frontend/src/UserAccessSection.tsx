import { useState } from 'react';
import { ErrorBox, Saved, Table, useAction } from '@pipewright/sdk/ui';
import { roleOf, ROLE_LABELS, setAccessGroups } from './routes';
import { Section, type UserSectionProps } from './Section';

type AccessByProject = Record<string, string[]>;

const sameGroups = (a: string[] = [], b: string[] = []) =>
  a.length === b.length && a.every((g) => b.includes(g));

/** The projects whose access groups differ from the saved ones, with their new groups. */
function changedAccess(projects: string[], access: AccessByProject, saved: AccessByProject): AccessByProject {
  return Object.fromEntries(
    projects
      .filter((name) => !sameGroups(access[name], saved[name]))
      .map((name) => [name, access[name] ?? []]),
  );
}

/** The user's access groups in each project, as a grid of checkboxes; administrators and managers need none. */
export function UserAccessSection({
  client,
  user,
  projects,
  groups,
  locked,
  onChanged,
}: UserSectionProps & { projects: { name: string; code: string }[]; groups: string[] }) {
  const original = user.data.accessGroups ?? {};
  const [access, setAccess] = useState<AccessByProject>(original);
  const change = useAction();
  const role = roleOf(user);

  if (role === 'admin' || role === 'manager') {
    return (
      <Section title="Project access">
        <p className="muted">
          {ROLE_LABELS[role]}s reach every project; access groups apply to users and guests.
        </p>
      </Section>
    );
  }
  if (projects.length === 0 || groups.length === 0) {
    return (
      <Section title="Project access">
        <p className="muted">
          {projects.length === 0
            ? 'There are no projects yet. Create one, then come back to give access to it.'
            : 'There are no access groups. Create one in the Access groups tab.'}
        </p>
      </Section>
    );
  }

  const toggle = (project: string, group: string, on: boolean) => {
    const current = access[project] ?? [];
    setAccess({ ...access, [project]: on ? [...current, group] : current.filter((g) => g !== group) });
  };
  const changed = changedAccess(
    projects.map((p) => p.name),
    access,
    original,
  );

  const save = () =>
    change.run(async () => {
      await setAccessGroups(client, user.name, changed);
      onChanged();
    }, 'Access saved.');

  return (
    <Section title="Project access" disabled={locked || change.busy}>
      <Table label="Access groups per project" columns={['Project', ...groups]} className="us-access">
        {projects.map((project) => (
          <tr key={project.name}>
            <th scope="row">{project.name}</th>
            {groups.map((group) => (
              <td key={group}>
                <input
                  type="checkbox"
                  aria-label={`${group} in ${project.name}`}
                  checked={(access[project.name] ?? []).includes(group)}
                  onChange={(e) => toggle(project.name, group, e.target.checked)}
                />
              </td>
            ))}
          </tr>
        ))}
      </Table>
      <ErrorBox error={change.error} />
      <Saved message={change.done} />
      <button type="button" className="primary" onClick={save} disabled={Object.keys(changed).length === 0}>
        Save access
      </button>
    </Section>
  );
}
