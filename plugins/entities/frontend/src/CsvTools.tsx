import { useEffect, useRef, useState, type ReactElement } from 'react';
import { ErrorBox, messageOf, useClient } from '@pipewright/sdk/ui';
import type { Person } from './Assignees';
import { planImport, planOperations, toCsv, type ImportPlan, type PlannedRow } from './csv';
import type { Column } from './grid/columns';
import type { Entity, ProjectMeta } from './model';
import type { GridRow } from './rows';
import type { ProjectStore } from './store/ProjectStore';
import { Dialog } from './dialogs/Dialog';
import './csv.css';

type Say = (notice: { kind: 'error' | 'info'; text: string }) => void;

/** Export CSV and Import CSV for the toolbar: the grid as shown to a file, and a file back with a preview. */
export function CsvTools({
  project,
  store,
  meta,
  rows,
  columns,
  people,
  onNotice,
}: {
  project: string;
  store: ProjectStore;
  meta: ProjectMeta;
  /** The rows shown, in order. */
  rows: GridRow[];
  /** The columns shown, in order. */
  columns: Column[];
  people: Person[];
  onNotice: Say;
}) {
  const client = useClient();
  const picker = useRef<HTMLInputElement>(null);
  const [importing, setImporting] = useState<{ file: string; text: string } | null>(null);

  const exportCsv = () => {
    const entities = rows.flatMap((row) => (row.type === 'entity' ? [row.entity] : []));
    const blob = new Blob([toCsv(entities, columns, people)], { type: 'text/csv;charset=utf-8' });
    const link = document.createElement('a');
    link.href = URL.createObjectURL(blob);
    link.download = `${project}.csv`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
    onNotice({ kind: 'info', text: `Exported ${entities.length} rows to ${project}.csv.` });
  };

  return (
    <>
      <button type="button" onClick={exportCsv} title="The rows and columns shown, as a CSV file">
        Export CSV
      </button>
      <button type="button" onClick={() => picker.current?.click()} title="Create or update by path">
        Import CSV
      </button>
      <input
        ref={picker}
        type="file"
        accept=".csv,text/csv"
        aria-label="CSV file to import"
        hidden
        onChange={async (event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) setImporting({ file: file.name, text: await file.text() });
        }}
      />
      {importing && (
        <ImportDialog
          {...{ client, project, store, meta, columns, people, onNotice }}
          {...importing}
          onClose={() => setImporting(null)}
        />
      )}
    </>
  );
}

const ACTION_WORDS: Record<PlannedRow['action'], string> = {
  create: 'to create',
  update: 'to update',
  unchanged: 'unchanged',
  error: 'in error',
};

function ImportDialog({
  project,
  store,
  meta,
  columns,
  people,
  file,
  text,
  onNotice,
  onClose,
}: {
  project: string;
  store: ProjectStore;
  meta: ProjectMeta;
  columns: Column[];
  people: Person[];
  file: string;
  text: string;
  onNotice: Say;
  onClose(): void;
}) {
  const client = useClient();
  const [plan, setPlan] = useState<{ plan: ImportPlan; byPath: Map<string, Entity> } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // The plan is of the file as the project stood when the dialog opened: later renders do not plan again.
  const opened = useRef({ columns, meta, people });
  useEffect(() => {
    let current = true;
    const { columns, meta, people } = opened.current;
    // Rows are found by path anywhere in the project: the whole project is read first.
    void store
      .loadAll()
      .then(() => {
        if (store.full.state === 'error') throw new Error(store.full.error);
        const byPath = new Map([...store.entities.values()].map((e) => [e.path, e]));
        if (current) setPlan({ plan: planImport(text, byPath, columns, meta, people), byPath });
      })
      .catch((failure) => current && setError(`The project could not be read: ${messageOf(failure)}`));
    return () => {
      current = false;
    };
  }, [store, text]);

  const count = (action: PlannedRow['action']) =>
    plan?.plan.rows.filter((r) => r.action === action).length ?? 0;
  const errors = count('error');
  const changes = count('create') + count('update');

  const apply = async () => {
    if (!plan) return;
    setBusy(true);
    const batch = client.operations(project);
    const paths = new Map<string, string>();
    // Which path each operation is about, to name the line the server refuses.
    planOperations(plan.plan, plan.byPath, {
      create: (kind, data, path) => {
        const id = batch.create(kind, data as never);
        paths.set(id, path);
        return id;
      },
      update: (kind, id, data, path) => {
        batch.update(kind, id, data as never);
        paths.set(id, path);
      },
    });
    try {
      const answer = await batch.commit();
      if (!answer.success) {
        const failed = answer.operations.find((o) => !o.success);
        const where = failed?.entityId ? paths.get(failed.entityId) : undefined;
        setError(
          `Nothing was imported: ${where ? `${where}: ` : ''}${failed?.detail ?? 'the server refused the change'}.`,
        );
        setBusy(false);
        return;
      }
    } catch (failure) {
      setError(`Nothing was imported: ${messageOf(failure)}.`);
      setBusy(false);
      return;
    }
    onClose();
    onNotice({
      kind: 'info',
      text: `Imported ${file}: ${count('create')} created, ${count('update')} updated.`,
    });
    store.forgetIndex();
    await store.reloadEverything().catch(() => undefined);
  };

  const listed = (action: PlannedRow['action']) => plan?.plan.rows.filter((r) => r.action === action) ?? [];
  // Closing while the import is applied would leave its outcome unsaid.
  const close = () => !busy && onClose();
  return (
    <Dialog as="div" className="pwo-csv-dialog" label="Import CSV" heading={`Import ${file}`} onClose={close}>
      {!plan && !error && <p className="muted">Reading the project to find the rows by path…</p>}
      {plan && (
        <>
          <p role="status" aria-label="Import preview">
            {(['create', 'update', 'unchanged', 'error'] as const)
              .map((action) => `${count(action)} ${ACTION_WORDS[action]}`)
              .join(', ')}
          </p>
          {plan.plan.problems.map((problem) => (
            <p key={problem} className="muted">
              {problem}
            </p>
          ))}
          <div className="pwo-csv-preview">
            {PREVIEWS.map(({ action, title, className }) => (
              <PreviewList key={action} title={title} className={className}>
                {listed(action).map((row) => (
                  <li key={row.line}>{described(row)}</li>
                ))}
              </PreviewList>
            ))}
          </div>
          {errors > 0 && (
            <p className="pwo-error-text">
              Correct the {errors === 1 ? 'line' : 'lines'} in error in the file and import it again: nothing
              is applied while a line is wrong.
            </p>
          )}
        </>
      )}
      <ErrorBox error={error} />
      <div className="pwo-dialog-actions">
        <button
          type="button"
          className="primary"
          disabled={!plan || busy || errors > 0 || changes === 0}
          onClick={() => void apply()}
        >
          {busy ? 'Applying…' : `Apply ${changes} change${changes === 1 ? '' : 's'}`}
        </button>
        <button type="button" onClick={onClose} disabled={busy}>
          Cancel
        </button>
      </div>
    </Dialog>
  );
}

/** The preview's lists, in order: what is wrong first. */
const PREVIEWS: { action: PlannedRow['action']; title: string; className?: string }[] = [
  { action: 'error', title: 'Errors', className: 'pwo-error-text' },
  { action: 'create', title: 'To create' },
  { action: 'update', title: 'To update' },
  { action: 'unchanged', title: 'Unchanged' },
];

/** One line of the preview's lists. */
function described(row: PlannedRow): string {
  switch (row.action) {
    case 'error':
      return `Line ${row.line}, ${row.path}: ${row.error}`;
    case 'create':
      return `${row.kind} ${row.path} (${row.type})`;
    case 'update':
      return `${row.entity.path}: ${row.said.join(', ')}`;
    case 'unchanged':
      return row.path;
  }
}

function PreviewList({
  title,
  className,
  children,
}: {
  title: string;
  className?: string;
  children: ReactElement[];
}) {
  if (children.length === 0) return null;
  return (
    <section aria-label={title}>
      <h4 className={className}>
        {title} ({children.length})
      </h4>
      <ul className={className}>{children}</ul>
    </section>
  );
}
