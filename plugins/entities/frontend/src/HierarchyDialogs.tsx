import { useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { ErrorBox } from '@pipewright/sdk/ui';
import { NAME } from './CreateDialog';
import { numberedNames } from './hierarchy';
import type { Entity, ProjectMeta } from './model';

// The dialogs that shape the hierarchy: bulk creation, rename, move and delete. Each hands its request to the
// overview, which sends it as one atomic batch and answers with the server's refusal (or null when done).

/** One entity a bulk creation makes; `parent` is an existing folder's id, or the key of one made in the same go. */
export interface Planned {
  key: string;
  kind: Entity['kind'];
  name: string;
  type: string;
  parent: { id: string | null } | { key: string };
}

function Dialog({
  label,
  onSubmit,
  onClose,
  children,
}: {
  label: string;
  onSubmit(event: FormEvent): void;
  onClose(): void;
  children: ReactNode;
}) {
  return (
    <div className="pwo-dialog-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <form
        className="pwo-dialog"
        role="dialog"
        aria-label={label}
        onSubmit={onSubmit}
        onKeyDown={(e) => e.key === 'Escape' && onClose()}
      >
        <h2>{label}</h2>
        {children}
      </form>
    </div>
  );
}

/** Submit and cancel; the submit button names what it does and says when it is busy. */
function Actions({
  busy,
  doing,
  done,
  disabled,
  onClose,
}: {
  busy: boolean;
  doing: string;
  done: string;
  disabled?: boolean;
  onClose(): void;
}) {
  return (
    <div className="pwo-dialog-actions">
      <button type="submit" className="primary" disabled={busy || disabled}>
        {busy ? doing : done}
      </button>
      <button type="button" onClick={onClose}>
        Cancel
      </button>
    </div>
  );
}

/** Runs a request, keeping the dialog open with the server's reason when it is refused. */
function useRequest() {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (request: () => Promise<string | null>) => {
    setBusy(true);
    setError(await request());
    setBusy(false);
  };
  return { error, setError, busy, run };
}

const taskName = (type: string) =>
  type
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '') || 'task';

/**
 * Many folders or tasks in one go: an optional container folder with a run of numbered folders inside (sq010 with
 * sh010 to sh200, step 10), or tasks of the chosen types on each of the chosen folders. The names are previewed.
 */
export function BulkCreateDialog({
  parent,
  folders,
  meta,
  existingTasks,
  onCreate,
  onClose,
}: {
  /** Where new folders go: the chosen folder, or null for the top level. */
  parent: Entity | null;
  /** The folders new tasks go on: the selected ones. */
  folders: Entity[];
  meta: ProjectMeta;
  /** The task names a folder already has, when known (those are skipped). */
  existingTasks(folder: Entity): Set<string>;
  onCreate(plan: Planned[], label: string): Promise<string | null>;
  onClose(): void;
}) {
  const [mode, setMode] = useState<'folders' | 'tasks'>(
    // Several folders chosen (shots) most likely want tasks; one chosen folder most likely wants folders inside.
    folders.length > 1 ? 'tasks' : 'folders',
  );
  const folderTypes = meta.folderTypes.map((t) => t.name);
  const pick = (wanted: string) => (folderTypes.includes(wanted) ? wanted : (folderTypes[0] ?? ''));
  const [container, setContainer] = useState('');
  const [containerType, setContainerType] = useState(
    pick(parent?.type === 'Episode' ? 'Sequence' : 'Sequence'),
  );
  const [first, setFirst] = useState('sh010');
  const [last, setLast] = useState('sh050');
  const [step, setStep] = useState('10');
  const [childType, setChildType] = useState(pick('Shot'));
  const [taskTypes, setTaskTypes] = useState<Set<string>>(() => new Set());
  const { error, setError, busy, run } = useRequest();

  const names = useMemo(() => numberedNames(first, last, Number(step)), [first, last, step]);
  const plan = useMemo((): Planned[] | string => {
    if (mode === 'folders') {
      if (typeof names === 'string') return names;
      if (container && !NAME.test(container)) return `${container} is not a valid name`;
      if (!names.every((n) => NAME.test(n))) return `${names[0]} is not a valid name`;
      const top: Planned[] = container
        ? [
            {
              key: 'container',
              kind: 'folder',
              name: container,
              type: containerType,
              parent: { id: parent?.id ?? null },
            },
          ]
        : [];
      const under = container ? { key: 'container' } : { id: parent?.id ?? null };
      return [
        ...top,
        ...names.map((name): Planned => ({
          key: name,
          kind: 'folder',
          name,
          type: childType,
          parent: under,
        })),
      ];
    }
    if (folders.length === 0) return 'Select the folders (shots, assets) the tasks go on first';
    if (taskTypes.size === 0) return 'Choose at least one task type';
    const chosen = meta.taskTypes.filter((t) => taskTypes.has(t.name));
    return folders.flatMap((folder) => {
      const existing = existingTasks(folder);
      return chosen
        .filter((t) => !existing.has(taskName(t.name)))
        .map((t): Planned => ({
          key: `${folder.id}/${t.name}`,
          kind: 'task',
          name: taskName(t.name),
          type: t.name,
          parent: { id: folder.id },
        }));
    });
  }, [mode, names, container, containerType, childType, parent, folders, taskTypes, meta, existingTasks]);

  const where = parent ? parent.path : 'the top level of the project';
  const preview =
    typeof plan === 'string'
      ? null
      : mode === 'folders'
        ? `${container ? `${container} (${containerType}) in ${where}, with ` : `In ${where}: `}${plan.length - (container ? 1 : 0)} ${childType} folders: ${summary(typeof names === 'string' ? [] : names)}`
        : plan.length === 0
          ? 'Every selected folder already has these tasks.'
          : `${plan.length} tasks on ${folders.length} folder${folders.length === 1 ? '' : 's'}: ${summary([...new Set(plan.map((p) => p.name))])}`;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (typeof plan === 'string') return setError(plan);
    if (plan.length === 0) return onClose();
    const label = mode === 'folders' ? `create ${plan.length} folders` : `create ${plan.length} tasks`;
    void run(() => onCreate(plan, label));
  };

  return (
    <Dialog label="Create in bulk" onSubmit={submit} onClose={onClose}>
      <div className="pw-row" role="radiogroup" aria-label="What to create">
        <label>
          <input type="radio" name="mode" checked={mode === 'folders'} onChange={() => setMode('folders')} />{' '}
          Folders
        </label>
        <label>
          <input type="radio" name="mode" checked={mode === 'tasks'} onChange={() => setMode('tasks')} />{' '}
          Tasks on the selected folders
        </label>
      </div>
      {mode === 'folders' ? (
        <>
          <p className="muted">In {where}</p>
          <div className="pwo-dialog-pair">
            <label>
              Container folder (optional)
              <input
                name="container"
                value={container}
                placeholder="sq010"
                onChange={(e) => setContainer(e.target.value)}
              />
            </label>
            <label>
              Container type
              <select
                value={containerType}
                onChange={(e) => setContainerType(e.target.value)}
                disabled={!container}
              >
                {folderTypes.map((t) => (
                  <option key={t}>{t}</option>
                ))}
              </select>
            </label>
          </div>
          <div className="pwo-dialog-pair">
            <label>
              First name
              <input name="first" value={first} onChange={(e) => setFirst(e.target.value)} />
            </label>
            <label>
              Last name
              <input name="last" value={last} onChange={(e) => setLast(e.target.value)} />
            </label>
            <label>
              Step
              <input
                name="step"
                type="number"
                min={1}
                value={step}
                onChange={(e) => setStep(e.target.value)}
              />
            </label>
          </div>
          <label>
            Type of the numbered folders
            <select value={childType} onChange={(e) => setChildType(e.target.value)}>
              {folderTypes.map((t) => (
                <option key={t}>{t}</option>
              ))}
            </select>
          </label>
        </>
      ) : (
        <>
          <p className="muted">
            On{' '}
            {folders.length
              ? `${summary(folders.map((f) => f.path))}`
              : 'no folder yet: select shots or assets in the grid first'}
          </p>
          <fieldset className="pwo-task-types">
            <legend>Task types</legend>
            {meta.taskTypes.map((t) => (
              <label key={t.name}>
                <input
                  type="checkbox"
                  checked={taskTypes.has(t.name)}
                  onChange={() =>
                    setTaskTypes((current) => {
                      const next = new Set(current);
                      if (!next.delete(t.name)) next.add(t.name);
                      return next;
                    })
                  }
                />{' '}
                {t.name}
              </label>
            ))}
          </fieldset>
        </>
      )}
      <p className="pwo-preview" role="status" aria-label="Preview">
        {typeof plan === 'string' ? plan : preview}
      </p>
      <ErrorBox error={error} />
      <Actions
        busy={busy}
        doing="Creating…"
        done="Create"
        disabled={typeof plan === 'string'}
        onClose={onClose}
      />
    </Dialog>
  );
}

/** A few names and how many more: "sh010, sh020, sh030 … sh200 (20)". */
function summary(names: string[]): string {
  if (names.length <= 6) return names.join(', ');
  return `${names.slice(0, 3).join(', ')} … ${names[names.length - 1]} (${names.length})`;
}

export function RenameDialog({
  entity,
  onRename,
  onClose,
}: {
  entity: Entity;
  onRename(name: string, label: string | null): Promise<string | null>;
  onClose(): void;
}) {
  const [name, setName] = useState(entity.name);
  const [label, setLabel] = useState(entity.label ?? '');
  const { error, setError, busy, run } = useRequest();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!NAME.test(name))
      return setError('Use letters, digits and _ (dots and hyphens inside the name are fine).');
    if (name === entity.name && label === (entity.label ?? '')) return onClose();
    void run(() => onRename(name, label || null));
  };
  return (
    <Dialog label={`Rename ${entity.name}`} onSubmit={submit} onClose={onClose}>
      <label>
        Name
        <input
          name="name"
          value={name}
          autoFocus
          required
          maxLength={255}
          onChange={(e) => setName(e.target.value)}
        />
      </label>
      <label>
        Label (optional)
        <input name="label" value={label} onChange={(e) => setLabel(e.target.value)} />
      </label>
      <ErrorBox error={error} />
      <Actions busy={busy} doing="Renaming…" done="Rename" onClose={onClose} />
    </Dialog>
  );
}

/** Pick the new parent folder among the project's folders (found by typing part of the path). */
export function MoveDialog({
  entities,
  folders,
  onMove,
  onClose,
}: {
  entities: Entity[];
  /** Every folder of the project (null while they are read). */
  folders: Entity[] | null;
  onMove(parent: Entity | null): Promise<string | null>;
  onClose(): void;
}) {
  const [text, setText] = useState('');
  const [chosen, setChosen] = useState<string>('');
  const { error, setError, busy, run } = useRequest();
  const tasksOnly = entities.every((e) => e.kind === 'task');
  // Not into itself, nor below itself.
  const candidates = useMemo(() => {
    const moving = entities.filter((e) => e.kind === 'folder').map((e) => e.path);
    const wanted = text.toLowerCase();
    return (folders ?? [])
      .filter((f) => !moving.some((p) => f.path === p || f.path.startsWith(`${p}/`)))
      .filter((f) => f.path.toLowerCase().includes(wanted))
      .sort((a, b) => a.path.localeCompare(b.path))
      .slice(0, 200);
  }, [folders, entities, text]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (chosen === '') return setError('Choose where to move to.');
    const parent = chosen === 'top' ? null : ((folders ?? []).find((f) => f.id === chosen) ?? null);
    void run(() => onMove(parent));
  };
  const what =
    entities.length === 1 ? entities[0]!.name : `${entities.length} ${tasksOnly ? 'tasks' : 'entities'}`;
  return (
    <Dialog label={`Move ${what}`} onSubmit={submit} onClose={onClose}>
      <label>
        Find a folder
        <input
          type="search"
          value={text}
          autoFocus
          placeholder="part of a path…"
          onChange={(e) => setText(e.target.value)}
        />
      </label>
      <label>
        New parent
        <select name="parent" size={8} value={chosen} onChange={(e) => setChosen(e.target.value)}>
          {!tasksOnly && <option value="top">The top level of the project</option>}
          {candidates.map((f) => (
            <option key={f.id} value={f.id}>
              {f.path}
            </option>
          ))}
        </select>
      </label>
      {!folders && <p className="muted">Reading the project's folders…</p>}
      <ErrorBox error={error} />
      <Actions busy={busy} doing="Moving…" done="Move" onClose={onClose} />
    </Dialog>
  );
}

/** Delete after asking; when the server says products would go too, ask again before forcing. */
export function DeleteDialog({
  entities,
  onDelete,
  onClose,
}: {
  entities: Entity[];
  /** Answers null when done, else why not; `needsForce` when only force would do it. */
  onDelete(force: boolean): Promise<{ error: string; needsForce: boolean } | null>;
  onClose(): void;
}) {
  const [forceReason, setForceReason] = useState<string | null>(null);
  const { error, busy, run } = useRequest();
  const what =
    entities.length === 1
      ? `${entities[0]!.kind} ${entities[0]!.path}`
      : `${entities.length} folders and tasks`;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      const answer = await onDelete(forceReason !== null);
      if (answer?.needsForce) {
        setForceReason(answer.error);
        return null;
      }
      return answer?.error ?? null;
    });
  };
  return (
    <Dialog label="Delete" onSubmit={submit} onClose={onClose}>
      {forceReason ? (
        <div className="error-box" role="alert">
          <strong>{forceReason}.</strong>
          <p>Delete the products and their versions too? This cannot be undone for the products.</p>
        </div>
      ) : (
        <p>
          Delete {what}
          {entities.some((e) => e.kind === 'folder') ? ' with everything inside' : ''}?
        </p>
      )}
      <ErrorBox error={error} />
      <Actions
        busy={busy}
        doing="Deleting…"
        done={forceReason ? 'Delete with its products' : 'Delete'}
        onClose={onClose}
      />
    </Dialog>
  );
}
