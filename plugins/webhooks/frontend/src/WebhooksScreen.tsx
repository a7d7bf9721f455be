import { useState } from 'react';
import type { ScreenProps } from '@pipewright/sdk/screen';
import {
  ChoosableRow,
  ErrorBox,
  exposedScreen,
  Table,
  useClient,
  useLoaded,
  useSearchParam,
} from '@pipewright/sdk/ui';
import { createWebhook, readWebhooks } from './routes';
import { SecretNotice } from './SecretNotice';
import { WebhookDetail } from './WebhookDetail';
import { EMPTY_DRAFT, WebhookForm } from './WebhookForm';
import './webhooks.css';

/**
 * Webhooks: what this studio tells other systems as it happens. Administrators manage every webhook, managers their
 * projects'; the chosen one is kept in ?webhook=, so a link or a reload opens it again.
 */
export default exposedScreen(function WebhooksScreen({ user }: ScreenProps) {
  const client = useClient();
  const [chosen, choose] = useSearchParam('webhook');
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const webhooks = useLoaded(() => readWebhooks(client), [client]);
  const projects = useLoaded(
    async () => (await client.GET('/api/projects')).projects.map((p) => p.name),
    [client],
  );
  const studioWide = user.isAdmin;
  const current = webhooks.data?.find((webhook) => webhook.id === chosen) ?? null;

  return (
    <section className="pw-screen">
      <header className="pw-header">
        <h1>Webhooks</h1>
        <button type="button" className="pw-primary" onClick={() => setCreating(true)}>
          New webhook
        </button>
      </header>
      <p className="muted">
        Changes sent on to other systems as they happen, signed, retried for a day and a half when the
        receiver is down, in order for each entity.
      </p>
      <ErrorBox error={webhooks.error && `The webhooks could not be read: ${webhooks.error}`} />
      {secret && <SecretNotice secret={secret} />}
      {creating && (
        <WebhookForm
          initial={{ ...EMPTY_DRAFT, projectName: studioWide ? null : (projects.data?.[0] ?? null) }}
          projects={projects.data ?? []}
          studioWide={studioWide}
          submitLabel="Create"
          onCancel={() => setCreating(false)}
          onSubmit={async (draft) => {
            const created = await createWebhook(client, draft);
            setSecret(created.secret);
            setCreating(false);
            await webhooks.reload();
            choose(created.id);
          }}
        />
      )}
      {webhooks.data?.length === 0 && !creating && (
        <p className="notice">
          No webhooks yet. Make one to tell a tracker, a chat or a farm what changes here.
        </p>
      )}
      {webhooks.data && webhooks.data.length > 0 && (
        <Table label="Webhooks" columns={['Name', 'Target', 'Scope', 'Events', 'State']}>
          {webhooks.data.map((webhook) => (
            <ChoosableRow
              key={webhook.id}
              selected={webhook.id === chosen}
              onChoose={() => choose(webhook.id)}
            >
              <td>{webhook.name}</td>
              <td className="wh-url">{webhook.url}</td>
              <td>{webhook.projectName ?? 'The whole studio'}</td>
              <td>{webhook.topics.join(', ')}</td>
              <td className={`wh-health-${webhook.active ? webhook.health : 'paused'}`}>
                {webhook.active ? webhook.health : 'paused'}
              </td>
            </ChoosableRow>
          ))}
        </Table>
      )}
      {current && (
        <WebhookDetail
          key={current.id}
          webhook={current}
          projects={projects.data ?? []}
          studioWide={studioWide}
          onChanged={() => void webhooks.reload()}
          onDeleted={() => {
            choose(null);
            void webhooks.reload();
          }}
        />
      )}
    </section>
  );
});
