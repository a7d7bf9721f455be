import { useEffect, useState } from 'react';
import {
  ConfirmButton,
  ErrorBox,
  Options,
  Panel,
  Table,
  useAction,
  useClient,
  useLoaded,
} from '@pipewright/sdk/ui';
import { CreateByName, PickAndEdit } from './PickAndEdit';
import {
  deleteTeam,
  listProjects,
  listTeams,
  listUsers,
  removeMember,
  saveMember,
  saveTeam,
  type Team,
  type TeamMember,
} from './routes';

/** Teams belong to a project: pick the project (the one chosen in the top bar by default), then its teams. */
export function TeamsTab({ project: chosen }: { project: string | null }) {
  const client = useClient();
  const projects = useLoaded(() => listProjects(client), [client]);
  const [project, setProject] = useState<string | null>(chosen);
  useEffect(() => {
    if (!project && projects.data?.length) setProject(chosen ?? projects.data[0]!.name);
  }, [project, chosen, projects.data]);

  if (projects.data && projects.data.length === 0)
    return (
      <p className="notice">Teams belong to projects, and there are none yet. Create a project first.</p>
    );
  return (
    <div className="us-teams">
      <div className="us-toolbar">
        <label className="pw-inline">
          Project
          <select
            value={project ?? ''}
            onChange={(e) => setProject(e.target.value)}
            aria-label="Project of the teams"
          >
            {(projects.data ?? []).map((p) => (
              <option key={p.name} value={p.name}>
                {p.name}
              </option>
            ))}
          </select>
        </label>
      </div>
      <ErrorBox error={projects.error} />
      {project && <ProjectTeams key={project} project={project} />}
    </div>
  );
}

function ProjectTeams({ project }: { project: string }) {
  const client = useClient();
  const teams = useLoaded(() => listTeams(client, project), [client, project]);
  const users = useLoaded(() => listUsers(client), [client]);
  const [selected, setSelected] = useState<string | null>(null);

  const team = teams.data?.find((t) => t.name === selected) ?? null;
  return (
    <PickAndEdit
      label="Teams"
      items={teams.data}
      error={teams.error}
      empty={`${project} has no teams yet. Create one below, then add its members.`}
      nameOf={(t) => t.name}
      picked={selected}
      onPick={setSelected}
      itemContent={(t) => (
        <>
          {t.name} <span className="muted">({t.memberCount})</span>
        </>
      )}
      create={
        <CreateByName
          label="New team"
          placeholder="New team name"
          submitLabel="Create team"
          rules={{ minLength: 2 }}
          onCreate={async (name) => {
            await saveTeam(client, project, name, []);
            setSelected(name);
            teams.reload();
          }}
        />
      }
    >
      {team && (
        <TeamEditor
          project={project}
          team={team}
          userNames={(users.data ?? []).filter((u) => u.active && !u.data.isService).map((u) => u.name)}
          onChanged={teams.reload}
          onDeleted={() => {
            setSelected(null);
            teams.reload();
          }}
        />
      )}
    </PickAndEdit>
  );
}

function TeamEditor({
  project,
  team,
  userNames,
  onChanged,
  onDeleted,
}: {
  project: string;
  team: Team;
  userNames: string[];
  onChanged(): void;
  onDeleted(): void;
}) {
  const client = useClient();
  const change = useAction();
  const [adding, setAdding] = useState('');
  const [addAsLeader, setAddAsLeader] = useState(false);
  const members = team.members ?? [];
  const candidates = userNames.filter((name) => !members.some((m) => m.name === name));

  const act = (work: Promise<unknown>) => void change.run(() => work.then(onChanged));
  const setRoles = (member: TeamMember, text: string) => {
    const roles = text
      .split(',')
      .map((role) => role.trim())
      .filter(Boolean);
    if (roles.join(',') !== member.roles.join(','))
      act(saveMember(client, project, team.name, member.name, { roles }));
  };

  return (
    <Panel
      title={team.name}
      label={`Team ${team.name}`}
      className="us-side"
      actions={
        <ConfirmButton
          label="Delete team"
          confirmLabel={`Delete ${team.name}`}
          onConfirm={() => void change.run(() => deleteTeam(client, project, team.name).then(onDeleted))}
        />
      }
    >
      {members.length === 0 ? (
        <p className="muted">No members yet. Add the first one below.</p>
      ) : (
        <Table label="Members" columns={['Member', 'Leader', 'Roles (comma separated)', '']}>
          {members.map((member) => (
            <tr key={member.name}>
              <td className="pw-strong">{member.name}</td>
              <td>
                <input
                  type="checkbox"
                  aria-label={`${member.name} leads the team`}
                  checked={member.leader}
                  onChange={(e) =>
                    act(saveMember(client, project, team.name, member.name, { leader: e.target.checked }))
                  }
                />
              </td>
              <td>
                <input
                  aria-label={`Roles of ${member.name}`}
                  defaultValue={member.roles.join(', ')}
                  placeholder="e.g. lead compositor"
                  onBlur={(e) => setRoles(member, e.target.value)}
                />
              </td>
              <td>
                <button
                  type="button"
                  onClick={() => act(removeMember(client, project, team.name, member.name))}
                >
                  Remove
                </button>
              </td>
            </tr>
          ))}
        </Table>
      )}
      <div className="pw-row">
        <select aria-label="User to add" value={adding} onChange={(e) => setAdding(e.target.value)}>
          <option value="">Choose a user…</option>
          <Options items={candidates} value={(name) => name} />
        </select>
        <label className="pw-inline">
          <input type="checkbox" checked={addAsLeader} onChange={(e) => setAddAsLeader(e.target.checked)} />
          as leader
        </label>
        <button
          type="button"
          disabled={!adding}
          onClick={() => {
            act(saveMember(client, project, team.name, adding, { leader: addAsLeader, roles: [] }));
            setAdding('');
            setAddAsLeader(false);
          }}
        >
          Add member
        </button>
      </div>
      <ErrorBox error={change.error} />
    </Panel>
  );
}
