import { useState } from 'react';
import { ConfirmButton, ErrorBox, Panel, Saved, useAction, useClient } from '@pipewright/sdk/ui';
import { DeliveryLog } from './DeliveryLog';
import { changeWebhook, deleteWebhook, ping, rotateSecret, type WebhookState } from './routes';
import { SecretNotice } from './SecretNotice';
import { WebhookForm } from './WebhookForm';

const HEALTH: Record<string, string> = {
  active: 'Healthy',
  unstable: 'Unstable: recent attempts failed',
  failed: 'Failed: paused after the receiver refused or retries ran out',
};

/** One webhook: its settings, pausing and resuming, a test ping, a new secret, and its delivery log. */
export function WebhookDetail({
  webhook,
  projects,
  studioWide,
  onChanged,
  onDeleted,
}: {
  webhook: WebhookState;
  projects: string[];
  studioWide: boolean;
  onChanged(): void;
  onDeleted(): void;
}) {
  const client = useClient();
  const action = useAction();
  const [secret, setSecret] = useState<string | null>(null);
  const [replay, setReplay] = useState(true);
  // Moves when something was sent, so the log reads again.
  const [sent, setSent] = useState(0);
  const run = (work: () => Promise<unknown>, done: string) =>
    action.run(async () => {
      await work();
      onChanged();
      setSent((n) => n + 1);
    }, done);

  return (
    <Panel
      title={webhook.name}
      className="wh-detail"
      actions={
        <span className={`wh-health wh-health-${webhook.active ? webhook.health : 'paused'}`}>
          {webhook.active ? HEALTH[webhook.health] : `Paused · ${HEALTH[webhook.health]}`}
        </span>
      }
    >
      <div className="wh-actions">
        {webhook.active ? (
          <button
            type="button"
            onClick={() => run(() => changeWebhook(client, webhook.id, { active: false }), 'Paused.')}
          >
            Pause
          </button>
        ) : (
          <>
            <button
              type="button"
              onClick={() =>
                run(() => changeWebhook(client, webhook.id, { active: true, replay }), 'Resumed.')
              }
            >
              Resume
            </button>
            <label>
              <input type="checkbox" checked={replay} onChange={(e) => setReplay(e.target.checked)} /> send
              what was held while paused
            </label>
          </>
        )}
        <button type="button" onClick={() => run(() => ping(client, webhook.id), 'Test message sent.')}>
          Send a test ping
        </button>
        <ConfirmButton
          label="New secret"
          confirmLabel="Make a new secret (the old one signs for 24 h more)"
          onConfirm={() => run(async () => setSecret((await rotateSecret(client, webhook.id)).secret), '')}
        />
        <ConfirmButton
          label="Delete"
          confirmLabel={`Delete ${webhook.name} and its log`}
          onConfirm={() => action.run(() => deleteWebhook(client, webhook.id).then(onDeleted))}
        />
      </div>
      <Saved message={action.done} />
      <ErrorBox error={action.error} />
      {secret && <SecretNotice secret={secret} />}
      <WebhookForm
        key={webhook.updatedAt}
        initial={{
          name: webhook.name,
          url: webhook.url,
          projectName: webhook.projectName,
          topics: webhook.topics,
          entityTypes: webhook.entityTypes as never,
          attributes: webhook.attributes,
          payload: webhook.payload as 'thin' | 'full',
          conditions: webhook.conditions,
          batchSize: webhook.batchSize,
        }}
        projects={projects}
        studioWide={studioWide}
        submitLabel="Save"
        onSubmit={(draft) => changeWebhook(client, webhook.id, draft).then(onChanged)}
      />
      <DeliveryLog webhookId={webhook.id} refreshed={sent} />
    </Panel>
  );
}
