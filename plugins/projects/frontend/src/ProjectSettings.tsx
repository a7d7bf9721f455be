import { useCallback, useEffect, useState } from 'react';
import { ApiError, describe, type Api, type Problem } from './api';
import { itemsOf, LISTS, rowsOf, type ListName, type Row } from './anatomy-lists';
import { ListEditor, type RowErrors } from './ListEditor';
import { go } from './location';

interface ProjectInfo {
  name: string;
  code: string;
  library: boolean;
  active: boolean;
}

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

/** One project's anatomy lists (statuses, folder and task types, tags), edited together and saved at once. */
export function ProjectSettings({
  api,
  name,
  basePath,
  canManage,
}: {
  api: Api;
  name: string;
  basePath: string;
  canManage: boolean;
}) {
  const [project, setProject] = useState<ProjectInfo | null>(null);
  const [anatomy, setAnatomy] = useState<Record<string, unknown> | null>(null);
  const [lists, setLists] = useState<Lists | null>(null);
  const [tab, setTab] = useState<ListName>('statuses');
  const [dirty, setDirty] = useState(false);
  const [saving, setSaving] = useState(false);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [errors, setErrors] = useState<ListErrors>({});
  // After a save: whether it renamed statuses or types (the server renames them on the entities too).
  const [saved, setSaved] = useState<{ renamed: boolean } | null>(null);

  const load = useCallback(async () => {
    try {
      const [info, document] = await Promise.all([
        api<ProjectInfo>(`/api/projects/${encodeURIComponent(name)}`),
        api<Record<string, unknown>>(`/api/projects/${encodeURIComponent(name)}/anatomy`),
      ]);
      setProject(info);
      setAnatomy(document);
      setLists(listsOf(document));
      setDirty(false);
      setErrors({});
    } catch (failure) {
      setLoadError(
        failure instanceof ApiError && failure.status === 404
          ? `There is no project called ${name}.`
          : `The project could not be loaded: ${describe(failure)}.`,
      );
    }
  }, [api, name]);

  useEffect(() => {
    void load();
  }, [load]);

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
      await api(`/api/projects/${encodeURIComponent(name)}/anatomy`, { method: 'POST', body: document });
      await load();
      setSaved({ renamed });
    } catch (failure) {
      const { byList, other } =
        failure instanceof ApiError ? sortProblems(failure.problems) : { byList: {}, other: [] };
      setErrors(byList);
      const firstWithErrors = LIST_NAMES.find((list) => byList[list]);
      if (firstWithErrors) setTab(firstWithErrors);
      setSaveError([`Nothing was saved: ${describe(failure)}.`, ...other].join(' '));
    } finally {
      setSaving(false);
    }
  };

  const setActive = async (active: boolean) => {
    try {
      await api(`/api/projects/${encodeURIComponent(name)}`, { method: 'PATCH', body: { active } });
      setProject((p) => (p ? { ...p, active } : p));
    } catch (failure) {
      setSaveError(describe(failure));
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
        <p className="pwp-error" role="alert">
          {loadError} Pick one from the list of projects.
        </p>
      </section>
    );
  if (!project || !lists) return <p className="pwp-muted">Loading {name}…</p>;

  const spec = LISTS.find((l) => l.name === tab)!;
  return (
    <section className="pwp-settings" aria-label={`Settings of ${name}`}>
      {back}
      <header className="pwp-header">
        <h1>{project.name}</h1>
        <span className="pwp-muted">
          code <code>{project.code}</code>
          {project.library ? ' · library' : ''} · {project.active ? 'active' : 'archived'}
        </span>
        <span className="pwp-spacer" />
        {canManage && (
          <button type="button" onClick={() => void setActive(!project.active)}>
            {project.active ? 'Archive project' : 'Reactivate project'}
          </button>
        )}
      </header>
      {!canManage && (
        <p className="pwp-notice">
          You can look at these settings; changing them takes a manager or administrator.
        </p>
      )}

      <div className="pwp-tabs" role="tablist" aria-label="Anatomy lists">
        {LISTS.map((l) => {
          const problems = Object.keys(errors[l.name] ?? {}).length;
          return (
            <button
              key={l.name}
              type="button"
              role="tab"
              aria-selected={tab === l.name}
              className={tab === l.name ? 'pwp-tab pwp-tab-on' : 'pwp-tab'}
              onClick={() => setTab(l.name)}
            >
              {l.title} <span className="pwp-count">{lists[l.name].length}</span>
              {problems > 0 && <span className="pwp-badge-error">{problems} to fix</span>}
            </button>
          );
        })}
      </div>

      <div role="tabpanel" aria-label={spec.title}>
        <ListEditor
          spec={spec}
          rows={lists[tab]}
          errors={errors[tab] ?? {}}
          editable={canManage}
          onChange={(rows) => change(tab, rows)}
        />
      </div>

      {saveError && (
        <p className="pwp-error" role="alert">
          {saveError}
        </p>
      )}
      {saved && !dirty && (
        <p className="pwp-notice" role="status">
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
          <button type="button" disabled={!dirty || saving} onClick={() => void load()}>
            Discard changes
          </button>
          {dirty && <span className="pwp-muted">Unsaved changes in this project’s anatomy</span>}
        </div>
      )}
    </section>
  );
}
