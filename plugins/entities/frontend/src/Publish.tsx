import { useCallback, useEffect, useState, type FormEvent } from 'react';
import type { PipewrightClient } from '@pipewright/sdk/client';
import type { ScreenProps } from '@pipewright/sdk/screen';
import { ErrorBox, messageOf } from '@pipewright/sdk/ui';
import type { Person } from './Assignees';
import { AuthorField } from './AuthorField';
import { NAME } from './CreateDialog';
import type { Entity } from './model';
import {
  createProduct,
  createVersion,
  folderContents,
  go,
  nextVersion,
  productTypeChoices,
  reviewLink,
  versionLabel,
  type FolderContents,
} from './publish';
import './publish.css';

// New product and New version from the overview: a product in the chosen folder, then a version of it (number
// proposed as the next one, linked to a task, by an author), then its reviewables uploaded with the review
// screen's own upload bar (embedded through Extension) and the version opened in review.

export type PublishStart = 'product' | 'version';

type Step =
  | { kind: 'product' }
  | { kind: 'version'; productId: string | null }
  | { kind: 'done'; versionId: string; versionName: string; productName: string; uploaded: number };

export function PublishDialog({
  start,
  folder,
  task,
  client,
  project,
  people,
  Extension,
  onChanged,
  onClose,
}: {
  start: PublishStart;
  /** Where the product is, or is made: the chosen folder, or the chosen task's folder. */
  folder: Entity;
  /** The chosen task, proposed as the version's task. */
  task: Entity | null;
  client: PipewrightClient;
  project: string;
  people: Person[];
  Extension: ScreenProps['Extension'];
  /** Something was created: the detail panel reads the folder's versions again. */
  onChanged(): void;
  onClose(): void;
}) {
  const [step, setStep] = useState<Step>(
    start === 'product' ? { kind: 'product' } : { kind: 'version', productId: null },
  );
  const [contents, setContents] = useState<FolderContents | null>(null);
  const [readError, setReadError] = useState<string | null>(null);

  const read = useCallback(
    () =>
      folderContents(client, project, folder.id).then(
        (found) => {
          setContents(found);
          return found;
        },
        (failure) => {
          setReadError(`The products of ${folder.path} could not be read: ${messageOf(failure)}`);
          return null;
        },
      ),
    [client, project, folder.id, folder.path],
  );
  // Read once per folder; the dialog reads again after it creates something.
  useEffect(() => void read(), [read]);

  const title =
    step.kind === 'product'
      ? 'New product'
      : step.kind === 'version'
        ? 'New version'
        : `${step.productName} ${step.versionName}`;
  return (
    <div className="pwo-dialog-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        className="pwo-dialog pwo-publish"
        role="dialog"
        aria-label={title}
        onKeyDown={(e) => e.key === 'Escape' && onClose()}
      >
        <h2>{title}</h2>
        <ErrorBox error={readError} />
        {step.kind === 'product' && (
          <ProductForm
            client={client}
            project={project}
            folder={folder}
            taken={contents?.products.map((p) => p.name) ?? []}
            onCreated={async (productId) => {
              onChanged();
              await read();
              setStep({ kind: 'version', productId });
            }}
            onClose={onClose}
          />
        )}
        {step.kind === 'version' && (
          <VersionForm
            client={client}
            project={project}
            folder={folder}
            task={task}
            people={people}
            contents={contents}
            productId={step.productId}
            onNewProduct={() => setStep({ kind: 'product' })}
            onCreated={(created) => {
              onChanged();
              setStep({ kind: 'done', ...created, uploaded: 0 });
            }}
            onClose={onClose}
          />
        )}
        {step.kind === 'done' && (
          <>
            <p role="status">
              Created {step.productName} {step.versionName} in {folder.path}. Add its reviewables here, then
              open it in review.
            </p>
            <Extension
              module="reviewables_screens/UploadReviewable"
              props={{
                versionId: step.versionId,
                versionName: step.versionName,
                onUploaded: () => {
                  onChanged();
                  setStep((s) => (s.kind === 'done' ? { ...s, uploaded: s.uploaded + 1 } : s));
                },
              }}
              fallback={
                <p className="muted">
                  Reviewables are uploaded on the review screen when the reviewables addon is installed.
                </p>
              }
            />
            {step.uploaded > 0 && (
              <p className="muted" role="status">
                {step.uploaded === 1 ? 'One reviewable' : `${step.uploaded} reviewables`} uploaded.
              </p>
            )}
            <div className="pwo-dialog-actions">
              <button
                type="button"
                className="primary"
                onClick={() => {
                  onClose();
                  go(reviewLink(project, step.versionId));
                }}
              >
                Open in review
              </button>
              <button type="button" onClick={onClose}>
                Close
              </button>
            </div>
          </>
        )}
      </div>
    </div>
  );
}

function ProductForm({
  client,
  project,
  folder,
  taken,
  onCreated,
  onClose,
}: {
  client: PipewrightClient;
  project: string;
  folder: Entity;
  taken: string[];
  onCreated(productId: string): Promise<void>;
  onClose(): void;
}) {
  const [name, setName] = useState('');
  const [productType, setProductType] = useState('');
  const [types, setTypes] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    void productTypeChoices(client, project).then(setTypes);
  }, [client, project]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!NAME.test(name))
      return setError('Use letters, digits and _ (dots and hyphens inside the name are fine).');
    if (taken.includes(name)) return setError(`${folder.path} already has a product ${name}.`);
    if (!NAME.test(productType)) return setError('Choose a product type (render, review, model, ...).');
    setBusy(true);
    setError(null);
    try {
      await onCreated(await createProduct(client, project, { name, productType, folderId: folder.id }));
    } catch (failure) {
      setError(`The product was not created: ${messageOf(failure)}`);
    }
    setBusy(false);
  };

  return (
    <form className="pwo-publish-form" onSubmit={submit}>
      <p className="muted">In {folder.path}</p>
      <label>
        Product name
        <input
          value={name}
          autoFocus
          required
          maxLength={255}
          placeholder="renderMain"
          onChange={(e) => setName(e.target.value)}
        />
      </label>
      <label>
        Product type
        <input
          value={productType}
          list="pwo-product-types"
          required
          maxLength={255}
          placeholder="render"
          onChange={(e) => setProductType(e.target.value)}
        />
        <datalist id="pwo-product-types">
          {types.map((t) => (
            <option key={t} value={t} />
          ))}
        </datalist>
      </label>
      <ErrorBox error={error} />
      <div className="pwo-dialog-actions">
        <button type="submit" className="primary" disabled={busy || !name || !productType}>
          {busy ? 'Creating…' : 'Create product'}
        </button>
        <button type="button" onClick={onClose}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function VersionForm({
  client,
  project,
  folder,
  task,
  people,
  contents,
  productId: chosen,
  onNewProduct,
  onCreated,
  onClose,
}: {
  client: PipewrightClient;
  project: string;
  folder: Entity;
  task: Entity | null;
  people: Person[];
  contents: FolderContents | null;
  productId: string | null;
  onNewProduct(): void;
  onCreated(created: { versionId: string; versionName: string; productName: string }): void;
  onClose(): void;
}) {
  const products = contents?.products ?? [];
  const [productId, setProductId] = useState<string | null>(chosen);
  const product = products.find((p) => p.id === productId) ?? products[0] ?? null;
  const proposed = product ? nextVersion(product.versions) : 1;
  // Empty while the user keeps the proposal, which follows the product chosen.
  const [number, setNumber] = useState('');
  const [taskId, setTaskId] = useState<string>(task?.id ?? '');
  const [author, setAuthor] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  if (!contents) return <p className="muted">Reading the products of {folder.path}…</p>;
  if (products.length === 0)
    return (
      <>
        <p>{folder.path} has no products yet: a version belongs to a product.</p>
        <div className="pwo-dialog-actions">
          <button type="button" className="primary" onClick={onNewProduct}>
            New product…
          </button>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </>
    );

  const value = number === '' ? proposed : Number(number);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!product) return;
    if (!Number.isInteger(value) || value < 1)
      return setError('The version number is a whole number from 1 up.');
    if (product.versions.includes(value))
      return setError(
        `${product.name} already has ${versionLabel(value)}: ${proposed} is the next free one.`,
      );
    setBusy(true);
    setError(null);
    try {
      const versionId = await createVersion(client, project, {
        version: value,
        productId: product.id,
        taskId: taskId || null,
        author: author || null,
      });
      onCreated({ versionId, versionName: versionLabel(value), productName: product.name });
    } catch (failure) {
      setError(`The version was not created: ${messageOf(failure)}`);
      setBusy(false);
    }
  };

  return (
    <form className="pwo-publish-form" onSubmit={submit}>
      <label>
        Product
        <select
          value={product?.id ?? ''}
          onChange={(e) => {
            setProductId(e.target.value);
            setNumber('');
          }}
        >
          {products.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name} ({p.productType}
              {p.versions.length ? `, ${p.versions.length} versions` : ''})
            </option>
          ))}
        </select>
      </label>
      <label>
        Version number
        <input
          type="number"
          min={1}
          step={1}
          value={number === '' ? String(proposed) : number}
          onChange={(e) => setNumber(e.target.value)}
        />
      </label>
      <label>
        Task
        <select value={taskId} onChange={(e) => setTaskId(e.target.value)}>
          <option value="">No task</option>
          {contents.tasks.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name} ({t.taskType})
            </option>
          ))}
        </select>
      </label>
      <AuthorField client={client} project={project} people={people} value={author} onChange={setAuthor} />
      <ErrorBox error={error} />
      <div className="pwo-dialog-actions">
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Creating…' : `Create ${versionLabel(value > 0 ? value : proposed)}`}
        </button>
        <button type="button" onClick={onNewProduct}>
          New product…
        </button>
        <button type="button" onClick={onClose}>
          Cancel
        </button>
      </div>
    </form>
  );
}
