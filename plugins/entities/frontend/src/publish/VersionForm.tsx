import { useState, type FormEvent } from 'react';
import { ErrorBox, messageOf, useClient } from '@pipewright/sdk/ui';
import type { Person } from '../Assignees';
import { Actions, useRequest } from '../dialogs/Dialog';
import type { Entity } from '../model';
import { AuthorField } from './AuthorField';
import { createVersion, nextVersion, versionLabel, type FolderContents } from './publish';

/** A new version of one of the folder's products: its number (the next free one proposed), task and author. */
export function VersionForm({
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
  const client = useClient();
  const products = contents?.products ?? [];
  const [productId, setProductId] = useState<string | null>(chosen);
  const product = products.find((p) => p.id === productId) ?? products[0] ?? null;
  const proposed = product ? nextVersion(product.versions) : 1;
  // Empty while the user keeps the proposal, which follows the product chosen.
  const [number, setNumber] = useState('');
  const [taskId, setTaskId] = useState<string>(task?.id ?? '');
  const [author, setAuthor] = useState('');
  const { error, setError, busy, run } = useRequest();

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
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!product) return;
    if (!Number.isInteger(value) || value < 1)
      return setError('The version number is a whole number from 1 up.');
    if (product.versions.includes(value))
      return setError(
        `${product.name} already has ${versionLabel(value)}: ${proposed} is the next free one.`,
      );
    setError(null);
    void run(async () => {
      try {
        const versionId = await createVersion(client, project, {
          version: value,
          productId: product.id,
          taskId: taskId || null,
          author: author || null,
        });
        onCreated({ versionId, versionName: versionLabel(value), productName: product.name });
        return null;
      } catch (failure) {
        return `The version was not created: ${messageOf(failure)}`;
      }
    });
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
      <AuthorField project={project} people={people} value={author} onChange={setAuthor} />
      <ErrorBox error={error} />
      <Actions
        busy={busy}
        doing="Creating…"
        done={`Create ${versionLabel(value > 0 ? value : proposed)}`}
        onClose={onClose}
      >
        <button type="button" onClick={onNewProduct}>
          New product…
        </button>
      </Actions>
    </form>
  );
}
