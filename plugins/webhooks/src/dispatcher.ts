import http from 'node:http';
import https from 'node:https';
import type { FastifyBaseLogger } from 'fastify';
import { signedHeaders } from './signing.js';
import type { ClaimedDelivery, WebhookStore } from './store.js';
import { checkedLookup } from './target.js';

// Every server process sends what is due: it claims messages for the length of an attempt (another process skips
// them), posts each signed, and records what came back. A message is delivered at least once: one that was sent but
// whose answer was lost to a crash is sent again when its claim runs out, with the same webhook-id.

/** Standard Webhooks' schedule: the delay before each retry (about a day and a half in all), a tenth either way. */
const RETRY_DELAYS_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];
const RESPONSE_KEPT = 4096;
const CLAIM = 20;

/** What an attempt came to, for the log and the next step. */
interface Answer {
  statusCode: number | null;
  response: string | null;
  error: string | null;
  retryAfterMs: number | null;
  latencyMs: number;
}

export interface DispatcherOptions {
  timeoutMs: number;
  /** How often due retries are looked for when nothing wakes the dispatcher. */
  pollMs: number;
}

export class Dispatcher {
  private running = false;
  private wake: (() => void) | null = null;
  /** A poke that came while the dispatcher was busy: it looks again at once rather than sleeping. */
  private poked = false;
  private loop: Promise<void> | null = null;

  constructor(
    private readonly store: WebhookStore,
    private readonly health: {
      succeeded(webhookId: string): Promise<void>;
      failed(webhookId: string, disable: boolean): Promise<void>;
    },
    private readonly log: FastifyBaseLogger,
    private readonly options: DispatcherOptions,
  ) {}

  start(): void {
    this.running = true;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.poke();
    await this.loop;
  }

  /** Look for due messages now (events were just stored for an endpoint). */
  poke(): void {
    this.poked = true;
    this.wake?.();
  }

  private async run(): Promise<void> {
    while (this.running) {
      this.poked = false;
      let claimed: ClaimedDelivery[] = [];
      try {
        claimed = await this.store.claim(CLAIM, this.options.timeoutMs + 10_000);
        await Promise.all(claimed.map((delivery) => this.attempt(delivery)));
      } catch (error) {
        this.log.error({ err: error }, 'webhook deliveries');
      }
      if (claimed.length < CLAIM && this.running && !this.poked)
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, this.options.pollMs);
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      this.wake = null;
    }
  }

  private async attempt(delivery: ClaimedDelivery): Promise<void> {
    const now = Date.now();
    const secrets = delivery.secrets
      .filter(({ until }) => until === null || Date.parse(until) > now)
      .map(({ secret }) => secret);
    const body = JSON.stringify({ ...delivery.body, sequence: Number(delivery.seq) });
    const answer = await post(
      delivery.url,
      body,
      signedHeaders(secrets, delivery.id, body, now),
      this.options,
    );
    const record = {
      status_code: answer.statusCode,
      response: answer.response,
      error: answer.error,
      latency_ms: answer.latencyMs,
    };
    const code = answer.statusCode ?? 0;
    if (code >= 200 && code < 300) {
      await this.store.attempted(delivery, record, { status: 'delivered' });
      await this.health.succeeded(delivery.webhook_id);
      return;
    }
    // 410 Gone: the receiver says the endpoint is no more.
    const delay = code === 410 ? undefined : RETRY_DELAYS_MS[delivery.attempts - 1];
    if (delay === undefined) {
      await this.store.attempted(delivery, record, { status: 'failed' });
      await this.health.failed(delivery.webhook_id, true);
      return;
    }
    // A receiver's Retry-After (with 429 or 503, say) wins over the schedule.
    const wait = answer.retryAfterMs ?? delay * (0.9 + Math.random() * 0.2);
    await this.store.attempted(delivery, record, { status: 'pending', next: new Date(Date.now() + wait) });
    await this.health.failed(delivery.webhook_id, false);
  }
}

/** Retry-After as seconds or an HTTP date, in milliseconds from now. */
function retryAfter(value: string | string[] | undefined): number | null {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return null;
  if (/^\d+$/.test(text.trim())) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

/** One POST: redirects are not followed (a 3xx is a failed attempt), the answer is kept to its first 4 KB. */
function post(url: string, body: string, headers: Record<string, string>, options: DispatcherOptions) {
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  return new Promise<Answer>((resolve) => {
    const target = new URL(url);
    const request = (target.protocol === 'https:' ? https : http).request(
      target,
      {
        method: 'POST',
        lookup: checkedLookup as never,
        timeout: options.timeoutMs,
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'Pipewright-Webhooks/1.0',
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        response.on('data', (chunk: Buffer) => {
          if (kept < RESPONSE_KEPT) chunks.push(chunk.subarray(0, RESPONSE_KEPT - kept));
          kept += chunk.length;
        });
        response.on('end', () =>
          resolve({
            statusCode: response.statusCode ?? null,
            response: Buffer.concat(chunks).toString('utf8'),
            error: null,
            retryAfterMs: retryAfter(response.headers['retry-after']),
            latencyMs: latency(),
          }),
        );
        response.on('error', (error) => fail(error));
      },
    );
    const fail = (error: Error) =>
      resolve({
        statusCode: null,
        response: null,
        error: error.message,
        retryAfterMs: null,
        latencyMs: latency(),
      });
    request.on('timeout', () => request.destroy(new Error(`no answer within ${options.timeoutMs} ms`)));
    request.on('error', fail);
    request.end(body);
  });
}
