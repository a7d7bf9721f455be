import { useState, type FormEvent } from 'react';
import { ErrorBox, messageOf, useClient, useLoaded } from '@pipewright/sdk/ui';
import { Actions, NameField, useRequest } from '../dialogs/Dialog';
import { NAME, NAME_RULE } from '../dialogs/names';
import type { Entity } from '../model';
import { createProduct, productTypeChoices } from './publish';

/** A new product in the folder: its name (not one the folder has) and its type, with the project's types offered. */
export function ProductForm({
  project,
  folder,
  taken,
  onCreated,
  onClose,
}: {
  project: string;
  folder: Entity;
  taken: string[];
  onCreated(productId: string): Promise<void>;
  onClose(): void;
}) {
  const client = useClient();
  const [name, setName] = useState('');
  const [productType, setProductType] = useState('');
  const types = useLoaded(() => productTypeChoices(client, project), [client, project]).data ?? [];
  const { error, setError, busy, run } = useRequest();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!NAME.test(name)) return setError(NAME_RULE);
    if (taken.includes(name)) return setError(`${folder.path} already has a product ${name}.`);
    if (!NAME.test(productType)) return setError('Choose a product type (render, review, model, ...).');
    setError(null);
    void run(async () => {
      try {
        await onCreated(await createProduct(client, project, { name, productType, folderId: folder.id }));
        return null;
      } catch (failure) {
        return `The product was not created: ${messageOf(failure)}`;
      }
    });
  };

  return (
    <form className="pwo-publish-form" onSubmit={submit}>
      <p className="muted">In {folder.path}</p>
      <NameField label="Product name" value={name} placeholder="renderMain" onChange={setName} />
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
      <Actions
        busy={busy}
        doing="Creating…"
        done="Create product"
        disabled={!name || !productType}
        onClose={onClose}
      />
    </form>
  );
}
