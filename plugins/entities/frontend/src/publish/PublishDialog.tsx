import { useState } from 'react';
import type { ScreenProps } from '@pipewright/sdk/screen';
import { ErrorBox, useClient, useLoaded } from '@pipewright/sdk/ui';
import type { Person } from '../Assignees';
import { Dialog } from '../dialogs/Dialog';
import type { Entity } from '../model';
import { ProductForm } from './ProductForm';
import { folderContents } from './publish';
import { PublishDone, type Published } from './PublishDone';
import { VersionForm } from './VersionForm';
import './publish.css';

// New product and New version from the overview: a product in the chosen folder, then a version of it (number
// proposed as the next one, linked to a task, by an author), then its reviewables uploaded with the review
// screen's own upload bar (embedded through Extension) and the version opened in review.

export type PublishStart = 'product' | 'version';

type Step =
  { kind: 'product' } | { kind: 'version'; productId: string | null } | ({ kind: 'done' } & Published);

export function PublishDialog({
  start,
  folder,
  task,
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
  project: string;
  people: Person[];
  Extension: ScreenProps['Extension'];
  /** Something was created: the detail panel reads the folder's versions again. */
  onChanged(): void;
  onClose(): void;
}) {
  const client = useClient();
  const [step, setStep] = useState<Step>(
    start === 'product' ? { kind: 'product' } : { kind: 'version', productId: null },
  );
  // Read once per folder; the dialog reads again after it creates something.
  const read = useLoaded(() => folderContents(client, project, folder.id), [client, project, folder.id]);
  const contents = read.data;
  const readError = read.error && `The products of ${folder.path} could not be read: ${read.error}`;

  const title =
    step.kind === 'product'
      ? 'New product'
      : step.kind === 'version'
        ? 'New version'
        : `${step.productName} ${step.versionName}`;
  const where = { client, project, folder };
  return (
    <Dialog as="div" className="pwo-publish" label={title} onClose={onClose}>
      <ErrorBox error={readError} />
      {step.kind === 'product' && (
        <ProductForm
          {...where}
          taken={contents?.products.map((p) => p.name) ?? []}
          onCreated={async (productId) => {
            onChanged();
            await read.reload();
            setStep({ kind: 'version', productId });
          }}
          onClose={onClose}
        />
      )}
      {step.kind === 'version' && (
        <VersionForm
          {...where}
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
        <PublishDone
          project={project}
          folder={folder}
          Extension={Extension}
          published={step}
          onUploaded={() => {
            onChanged();
            setStep((s) => (s.kind === 'done' ? { ...s, uploaded: s.uploaded + 1 } : s));
          }}
          onClose={onClose}
        />
      )}
    </Dialog>
  );
}
