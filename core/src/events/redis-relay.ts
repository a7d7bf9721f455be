import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { createClient } from 'redis';
import type { EventMessage } from '@pipewright/sdk';

type RedisClient = ReturnType<typeof createClient>;

/** Redis pub/sub between server processes; each process ignores its own messages (delivered locally already). */
export interface EventRelay {
  /** One Redis message carries many events: a batch of operations may emit tens of thousands. */
  publish(messages: EventMessage[]): Promise<void>;
  close(): Promise<void>;
}

export async function connectRedisRelay(
  url: string,
  channel: string,
  deliver: (messages: EventMessage[]) => void,
  log: FastifyBaseLogger,
): Promise<EventRelay> {
  // Loaded only when Redis is configured: the module costs about 0.2 s to load, and one process needs none.
  const { createClient: connect } = await import('redis');
  const origin = randomUUID();
  const publisher: RedisClient = connect({ url });
  publisher.on('error', (error) => log.error({ err: error }, 'redis publisher error'));
  await publisher.connect();
  const subscriber = publisher.duplicate();
  subscriber.on('error', (error) => log.error({ err: error }, 'redis subscriber error'));
  await subscriber.connect();
  await subscriber.subscribe(channel, (raw) => {
    try {
      const envelope = JSON.parse(raw) as { origin: string; messages: EventMessage[] };
      if (envelope.origin !== origin) deliver(envelope.messages);
    } catch (error) {
      log.warn({ err: error }, 'ignored a malformed message on the event channel');
    }
  });
  return {
    async publish(messages) {
      await publisher.publish(channel, JSON.stringify({ origin, messages }));
    },
    async close() {
      await subscriber.quit().catch(() => undefined);
      await publisher.quit().catch(() => undefined);
    },
  };
}
