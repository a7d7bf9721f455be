import { useMemo, useState, type FormEvent } from 'react';
import { ErrorBox } from '@pipewright/sdk/ui';
import { numberedNames } from '../hierarchy';
import type { Entity, ProjectMeta } from '../model';
import { toggled } from '../sets';
import { folderPreview, planFolders, planTasks, taskPreview, type Planned } from './bulkPlan';
import { Actions, Dialog, useRequest } from './Dialog';
import { summary } from './names';

/** The fields of a run of numbered folders, as typed. */
interface RunFields {
  container: string;
  containerType: string;
  first: string;
  last: string;
  step: string;
  childType: string;
}

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
  const [fields, setFields] = useState<RunFields>(() => ({
    container: '',
    containerType: pick('Sequence'),
    first: 'sh010',
    last: 'sh050',
    step: '10',
    childType: pick('Shot'),
  }));
  const [taskTypes, setTaskTypes] = useState<Set<string>>(() => new Set());
  const { error, setError, busy, run } = useRequest();

  const { first, last, step } = fields;
  const names = useMemo(() => numberedNames(first, last, Number(step)), [first, last, step]);
  const folderRun = useMemo(() => ({ ...fields, parent, names }), [fields, parent, names]);
  const plan = useMemo(
    () => (mode === 'folders' ? planFolders(folderRun) : planTasks(folders, taskTypes, meta, existingTasks)),
    [mode, folderRun, folders, taskTypes, meta, existingTasks],
  );
  const preview =
    typeof plan === 'string'
      ? plan
      : mode === 'folders'
        ? folderPreview(folderRun, plan)
        : taskPreview(folders, plan);

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
        <FolderRunFields
          fields={fields}
          folderTypes={folderTypes}
          where={parent ? parent.path : 'the top level of the project'}
          onChange={(change) => setFields((current) => ({ ...current, ...change }))}
        />
      ) : (
        <TaskTypeFields
          folders={folders}
          meta={meta}
          chosen={taskTypes}
          onToggle={(type) => setTaskTypes((current) => toggled(current, type))}
        />
      )}
      <p className="pwo-preview" role="status" aria-label="Preview">
        {preview}
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

function FolderRunFields({
  fields,
  folderTypes,
  where,
  onChange,
}: {
  fields: RunFields;
  folderTypes: string[];
  where: string;
  onChange(change: Partial<RunFields>): void;
}) {
  const typeOptions = folderTypes.map((t) => <option key={t}>{t}</option>);
  return (
    <>
      <p className="muted">In {where}</p>
      <div className="pwo-dialog-pair">
        <label>
          Container folder (optional)
          <input
            name="container"
            value={fields.container}
            placeholder="sq010"
            onChange={(e) => onChange({ container: e.target.value })}
          />
        </label>
        <label>
          Container type
          <select
            value={fields.containerType}
            onChange={(e) => onChange({ containerType: e.target.value })}
            disabled={!fields.container}
          >
            {typeOptions}
          </select>
        </label>
      </div>
      <div className="pwo-dialog-pair">
        <label>
          First name
          <input name="first" value={fields.first} onChange={(e) => onChange({ first: e.target.value })} />
        </label>
        <label>
          Last name
          <input name="last" value={fields.last} onChange={(e) => onChange({ last: e.target.value })} />
        </label>
        <label>
          Step
          <input
            name="step"
            type="number"
            min={1}
            value={fields.step}
            onChange={(e) => onChange({ step: e.target.value })}
          />
        </label>
      </div>
      <label>
        Type of the numbered folders
        <select value={fields.childType} onChange={(e) => onChange({ childType: e.target.value })}>
          {typeOptions}
        </select>
      </label>
    </>
  );
}

function TaskTypeFields({
  folders,
  meta,
  chosen,
  onToggle,
}: {
  folders: Entity[];
  meta: ProjectMeta;
  chosen: Set<string>;
  onToggle(type: string): void;
}) {
  return (
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
            <input type="checkbox" checked={chosen.has(t.name)} onChange={() => onToggle(t.name)} /> {t.name}
          </label>
        ))}
      </fieldset>
    </>
  );
}
