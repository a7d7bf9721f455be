import { useState } from 'react';
import {
  ChoosableRow,
  ErrorBox,
  exactTime,
  Saved,
  Table,
  useAction,
  useClient,
  useLoaded,
  whenText,
} from '@pipewright/sdk/ui';
import { readDeliveries, readDelivery, redeliver, type Delivery } from './routes';

const STATUSES = ['pending', 'held', 'delivered', 'failed', 'skipped'];

/** A webhook's messages of the last 14 days, newest first; one opened shows every attempt and sends it again. */
export function DeliveryLog({ webhookId, refreshed }: { webhookId: string; refreshed: number }) {
  const client = useClient();
  const [status, setStatus] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const log = useLoaded(
    () => readDeliveries(client, webhookId, status),
    [client, webhookId, status, refreshed],
  );
  return (
    <section className="wh-log" aria-label="Deliveries">
      <header className="wh-log-header">
        <h3 className="pw-subheading">Deliveries</h3>
        <select aria-label="Status" value={status ?? ''} onChange={(e) => setStatus(e.target.value || null)}>
          <option value="">Every status</option>
          {STATUSES.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
        <button type="button" onClick={() => void log.reload()}>
          Refresh
        </button>
      </header>
      <ErrorBox error={log.error && `The log could not be read: ${log.error}`} />
      {log.data?.length === 0 && <p className="muted">No message yet. Send a test ping to see one here.</p>}
      {log.data && log.data.length > 0 && (
        <Table label="Deliveries" columns={['#', 'Event', 'Status', 'Attempts', 'Made']}>
          {log.data.map((delivery: Delivery) => (
            <ChoosableRow
              key={delivery.id}
              selected={open === delivery.id}
              onChoose={() => setOpen(delivery.id)}
            >
              <td>{delivery.sequence}</td>
              <td>{delivery.topic}</td>
              <td className={`wh-status wh-status-${delivery.status}`}>{delivery.status}</td>
              <td>{delivery.attempts}</td>
              <td title={exactTime(delivery.createdAt)}>{whenText(delivery.createdAt)}</td>
            </ChoosableRow>
          ))}
        </Table>
      )}
      {open && (
        <Attempts key={open} webhookId={webhookId} deliveryId={open} onSent={() => void log.reload()} />
      )}
    </section>
  );
}

/** One message: every attempt with the receiver's answer, and a button to send it again (same webhook-id). */
function Attempts({
  webhookId,
  deliveryId,
  onSent,
}: {
  webhookId: string;
  deliveryId: string;
  onSent(): void;
}) {
  const client = useClient();
  const detail = useLoaded(
    () => readDelivery(client, webhookId, deliveryId),
    [client, webhookId, deliveryId],
  );
  const action = useAction();
  const send = () => action.run(() => redeliver(client, webhookId, deliveryId).then(onSent), 'Sent again.');
  return (
    <section className="wh-attempts" aria-label="Attempts">
      <ErrorBox error={detail.error} />
      {detail.data && (
        <>
          <p className="muted">
            webhook-id <code>{detail.data.id}</code>
            {detail.data.nextAttemptAt && ` · next attempt ${whenText(detail.data.nextAttemptAt)}`}
          </p>
          <ol>
            {detail.data.log.map((attempt) => (
              <li key={attempt.attempt}>
                {attempt.statusCode ?? attempt.error} · {attempt.latencyMs} ms ·{' '}
                <span title={exactTime(attempt.at)}>{whenText(attempt.at)}</span>
                {attempt.response && <pre className="wh-response">{attempt.response}</pre>}
              </li>
            ))}
          </ol>
          <button type="button" onClick={send} disabled={action.busy}>
            Send again
          </button>
          <Saved message={action.done} />
          <ErrorBox error={action.error} />
        </>
      )}
    </section>
  );
}
