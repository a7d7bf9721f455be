import { useEffect, useState } from 'react';
import type { PipewrightClient } from '@pipewright/sdk/client';
import {
  ErrorBox,
  messageOf,
  type Problem,
  problemsOf,
  statusOf,
  Tabs,
  useClient,
  useLoaded,
} from '@pipewright/sdk/ui';
import { itemsOf, LISTS, rowsOf, type ListName, type Row } from './anatomy-lists';
import { ListEditor, type RowErrors } from './ListEditor';
import { go } from './location';

type Lists = Record<ListName, Row[]>;
type ListErrors = Partial<Record<ListName, RowErrors>>;

const LIST_NAMES = LISTS.map((l) => l.name);

function listsOf(anatomy: Record<string, unknown>): Lists {
  return Object.fromEntries(LIST_NAMES.map((name) => [name, rowsOf(anatomy[name])])) as Lists;
}

/** Sort the server's problems (loc ["body", "statuses", 2, "color"]) into the list, row and field they concern. */
function sortProblems(problems: Problem[]): { byList: ListErrors; other: string[] } {
  const byList: ListErrors = {};
  const other: string[] = [];
  for (const { loc, msg } of problems) {
    const [, list, index, field] = loc;
    if (LIST_NAMES.includes(list as ListName) && typeof index === 'number') {
      const rows = (byList[list as ListName] ??= {});
      const fields = (rows[index] ??= {});
      fields[typeof field === 'string' ? field : ''] ??= msg;
    } else other.push(`${loc.slice(1).join('.')}: ${msg}`);
  }
  return { byList, other };
}

/** The project and its anatomy; a failure says, as a sentence, whether the project exists. */
async function readStored(client: PipewrightClient, name: string) {
  const inProject = { params: { path: { project_name: name } } };
  try {
    const [project, anatomy] = await Promise.all([
      client.GET('/api/projects/{project_name}', inProject),
      client.GET('/api/projects/{project_name}/anatomy', inProject),
    ]);
    return { project, anatomy };
  } catch (failure) {
    throw new Error(
      statusOf(failure) === 404
        ? `There is no project called ${name}.`
        : `The project could not be loaded: ${messageOf(failure)}.`,
    );
  }
}

/** One project's anatomy lists (statuses, folder and task types, tags), edited together and saved at once. */
export function ProjectSettings({
  name,
  basePath,
  canManage,
}: {
  name: string;
  basePath: string;
  canManage: boolean;
}) {
  const client = useClient();
  const stored = useLoaded(() => readStored(client, name), [client, name]);
  const project = stored.data?.project ?? null;
  const anatomy = stored.data?.anatomy ?? null;
  // The lists as edited, from the anatomy as last read.
  const [lists, setLists] = useState<Lists | null>(null);
  const [tab, setTab] = useState<ListName>('statuses');
  const [dirty, setDirty] = useState(false);
  const [saving, setSaving] = useState(false);
  const loadError = stored.error;
  const [saveError, setSaveError] = useState<string | null>(null);
  const [errors, setErrors] = useState<ListErrors>({});
  // After a save: whether it renamed statuses or types (the server renames them on the entities too).
  const [saved, setSaved] = useState<{ renamed: boolean } | null>(null);

  const inProject = { params: { path: { project_name: name } } };
  useEffect(() => {
    if (!anatomy) return;
    setLists(listsOf(anatomy));
    setDirty(false);
    setErrors({});
  }, [anatomy]);

  const change = (list: ListName, rows: Row[]) => {
    setLists((current) => (current ? { ...current, [list]: rows } : current));
    setDirty(true);
    setSaved(null);
  };

  const save = async () => {
    if (!anatomy || !lists) return;
    setSaving(true);
    setSaveError(null);
    setSaved(null);
    const renamed = (['statuses', 'folder_types', 'task_types'] as const).some((list) =>
      lists[list].some((row) => row.origin !== null && row.origin !== row.item.name),
    );
    const document = {
      ...anatomy,
      ...Object.fromEntries(LIST_NAMES.map((list) => [list, itemsOf(lists[list])])),
    };
    try {
      await client.POST('/api/projects/{project_name}/anatomy', { ...inProject, body: document });
      await stored.reload();
      setSaved({ renamed });
    } catch (failure) {
      const { byList, other } = sortProblems(problemsOf(failure));
      setErrors(byList);
      const firstWithErrors = LIST_NAMES.find((list) => byList[list]);
      if (firstWithErrors) setTab(firstWithErrors);
      setSaveError([`Nothing was saved: ${messageOf(failure)}.`, ...other].join(' '));
    } finally {
      setSaving(false);
    }
  };

  const setActive = async (active: boolean) => {
    try {
      await client.PATCH('/api/projects/{project_name}', { ...inProject, body: { active } });
      stored.set((current) => current && { ...current, project: { ...current.project, active } });
    } catch (failure) {
      setSaveError(messageOf(failure));
    }
  };

  const back = (
    <a
      href={basePath}
      onClick={(e) => {
        e.preventDefault();
        go(basePath);
      }}
    >
      ← All projects
    </a>
  );

  if (loadError)
    return (
      <section className="pwp-settings">
        {back}
        <ErrorBox error={`${loadError} Pick one from the list of projects.`} />
      </section>
    );
  if (!project || !lists) return <p className="muted">Loading {name}…</p>;

  const spec = LISTS.find((l) => l.name === tab)!;
  return (
    <section className="pwp-settings" aria-label={`Settings of ${name}`}>
      {back}
      <header className="pw-header">
        <h1>{project.name}</h1>
        <span className="muted">
          code <code>{project.code}</code>
          {project.library ? ' · library' : ''} · {project.active ? 'active' : 'archived'}
        </span>
        <span className="spacer" />
        {canManage && (
          <button type="button" onClick={() => void setActive(!project.active)}>
            {project.active ? 'Archive project' : 'Reactivate project'}
          </button>
        )}
      </header>
      {!canManage && (
        <p className="notice">
          You can look at these settings; changing them takes a manager or administrator.
        </p>
      )}

      <Tabs<ListName>
        label="Anatomy lists"
        current={tab}
        onChange={setTab}
        tabs={LISTS.map((l) => {
          const problems = Object.keys(errors[l.name] ?? {}).length;
          return {
            id: l.name,
            label: (
              <>
                {l.title} <span className="pwp-count">{lists[l.name].length}</span>
                {problems > 0 && <span className="pw-badge pw-badge-bad pwp-to-fix">{problems} to fix</span>}
              </>
            ),
          };
        })}
      />

      <div role="tabpanel" aria-label={spec.title}>
        <ListEditor
          spec={spec}
          rows={lists[tab]}
          errors={errors[tab] ?? {}}
          editable={canManage}
          onChange={(rows) => change(tab, rows)}
        />
      </div>

      <ErrorBox error={saveError} />
      {saved && !dirty && (
        <p className="notice" role="status">
          Saved.
          {saved.renamed
            ? ' Folders, tasks and versions that used a renamed entry now carry its new name.'
            : ''}
        </p>
      )}
      {canManage && (
        <div className="pwp-actions pwp-sticky-actions">
          <button type="button" className="primary" disabled={!dirty || saving} onClick={() => void save()}>
            {saving ? 'Saving…' : 'Save changes'}
          </button>
          <button type="button" disabled={!dirty || saving} onClick={() => void stored.reload()}>
            Discard changes
          </button>
          {dirty && <span className="muted">Unsaved changes in this project’s anatomy</span>}
        </div>
      )}
    </section>
  );
}
