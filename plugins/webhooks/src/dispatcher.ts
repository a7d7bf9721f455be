import http from 'node:http';
import https from 'node:https';
import type { FastifyBaseLogger } from 'fastify';
import { signedHeaders } from './signing.js';
import type { AttemptOutcome, ClaimedDelivery, WebhookStore } from './store.js';
import { checkedLookup } from './target.js';

// Every server process sends what is due: it claims messages for the length of an attempt (another process skips
// them), posts each signed, and records what came back. A message is delivered at least once: one that was sent but
// whose answer was lost to a crash is sent again when its claim runs out, with the same webhook-id.
// Up to IN_FLIGHT messages are under way at once, each request on its own, so a slow endpoint holds only its own
// slots. A webhook with a batch size sends what is due for it together, up to that many in one request. Claims, and the
// transactions recording what attempts came to, are at least TURN_MS apart: an idle server claims a new message at
// once, a busy one claims and records in batches rather than with statements per message (on PGlite, whose one
// connection the writes share, that is what keeps webhooks from slowing the writes down).

/** Standard Webhooks' schedule: the delay before each retry (about a day and a half in all), a tenth either way. */
const RETRY_DELAYS_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];
const RESPONSE_KEPT = 4096;
const IN_FLIGHT = 100;
const TURN_MS = 25;
/** How long past an attempt's timeout its claim lasts: the time to claim, sign and record around the request. */
const CLAIM_MARGIN_MS = 10_000;

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
  /** Messages claimed and not yet recorded. */
  private inFlight = 0;
  /** Attempts finished and not yet recorded, and the recorder writing them (null when idle). */
  private finished: AttemptOutcome[] = [];
  private recording: Promise<void> | null = null;
  private readonly sending = new Set<Promise<void>>();
  private readonly claimTurn = new Turns(TURN_MS);
  private readonly recordTurn = new Turns(TURN_MS);

  constructor(
    private readonly store: WebhookStore,
    private readonly health: {
      succeeded(webhookId: string): Promise<void>;
      failed(webhookId: string, paused: string | null): Promise<void>;
    },
    private readonly log: FastifyBaseLogger,
    private readonly options: DispatcherOptions,
  ) {}

  start(): void {
    this.running = true;
    this.loop = this.run();
  }

  /** Stop claiming; the attempts under way finish and are recorded. */
  async stop(): Promise<void> {
    this.running = false;
    this.poke();
    await this.loop;
    await Promise.all(this.sending);
    await this.recording;
  }

  /** Look for due messages now (events were just stored for an endpoint). */
  poke(): void {
    this.poked = true;
    this.wake?.();
  }

  private async run(): Promise<void> {
    while (this.running) {
      this.poked = false;
      const free = IN_FLIGHT - this.inFlight;
      let claimed: ClaimedDelivery[] = [];
      if (free > 0)
        try {
          await this.claimTurn.next();
          claimed = await this.store.claim(free, this.options.timeoutMs + CLAIM_MARGIN_MS);
        } catch (error) {
          this.log.error({ err: error }, 'webhook deliveries');
        }
      try {
        for (const request of await this.requests(claimed)) this.send(request);
      } catch (error) {
        // Not sent: their claim runs out and they are claimed again.
        this.log.error({ err: error }, 'webhook batches');
      }
      // Full, or nothing more is due: wait for a poke (a new message, a slot freed) or the next poll.
      if ((free === 0 || claimed.length < free) && this.running && !this.poked)
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

  /**
   * The requests claimed messages make, oldest first: a batch claimed again (a retry) as it was; a batching webhook's
   * new messages in batches of its size, formed (and committed) before they are sent; the others each alone.
   */
  private async requests(claimed: ClaimedDelivery[]): Promise<ClaimedDelivery[][]> {
    const requests: ClaimedDelivery[][] = [];
    const batches = new Map<string, ClaimedDelivery[]>();
    const forming = new Map<string, ClaimedDelivery[]>();
    const add = (map: Map<string, ClaimedDelivery[]>, key: string, delivery: ClaimedDelivery) =>
      map.set(key, [...(map.get(key) ?? []), delivery]);
    for (const delivery of [...claimed].sort((a, b) => Number(a.seq) - Number(b.seq)))
      if (delivery.batch_id) add(batches, delivery.batch_id, delivery);
      else if (delivery.batch_size > 1) add(forming, delivery.webhook_id, delivery);
      else requests.push([delivery]);
    requests.push(...batches.values());
    for (const due of forming.values())
      for (let start = 0; start < due.length; start += due[0]!.batch_size) {
        const batch = due.slice(start, start + due[0]!.batch_size);
        await this.store.formBatch(
          batch[0]!.id,
          batch.map(({ id }) => id),
        );
        for (const delivery of batch) delivery.batch_id = batch[0]!.id;
        requests.push(batch);
      }
    return requests;
  }

  private send(request: ClaimedDelivery[]): void {
    this.inFlight += request.length;
    const sending = this.attempt(request)
      .then((outcomes) => {
        this.finished.push(...outcomes);
        this.recording ??= this.record();
      })
      .catch((error) => {
        // Not recorded: the claim runs out and the messages are sent again.
        this.inFlight -= request.length;
        this.log.error({ err: error }, 'webhook delivery');
      })
      .finally(() => this.sending.delete(sending));
    this.sending.add(sending);
  }

  /** Write what finished, as long as more keeps finishing, then tell the endpoints' health and look for more. */
  private async record(): Promise<void> {
    while (this.finished.length > 0) {
      await this.recordTurn.next();
      const batch = this.finished.splice(0);
      try {
        await this.store.attempted(batch);
        // An endpoint's health counts requests: a batch failed once, not once per message.
        const succeeded = new Set<string>();
        const failed = new Map<string, AttemptOutcome>();
        for (const outcome of batch)
          if (outcome.outcome.status === 'delivered') succeeded.add(outcome.delivery.webhook_id);
          else failed.set(outcome.delivery.batch_id ?? outcome.delivery.id, outcome);
        for (const { delivery, attempt, outcome } of failed.values())
          await this.health.failed(
            delivery.webhook_id,
            outcome.status === 'failed' ? whyPaused(attempt) : null,
          );
        for (const webhookId of succeeded) await this.health.succeeded(webhookId);
      } catch (error) {
        this.log.error({ err: error }, 'webhook delivery log');
      }
      this.inFlight -= batch.length;
      // A slot is free, and a message of the same entity may be due now that this one is done.
      this.poke();
    }
    this.recording = null;
  }

  /** One request: a message alone, or a batch (led by its first message) as {type: "batch", data: [messages]}. */
  private async attempt(request: ClaimedDelivery[]): Promise<AttemptOutcome[]> {
    const now = Date.now();
    const [first] = request as [ClaimedDelivery, ...ClaimedDelivery[]];
    const secrets = first.secrets
      .filter(({ until }) => until === null || Date.parse(until) > now)
      .map(({ secret }) => secret);
    const message = (delivery: ClaimedDelivery) => ({ ...delivery.body, sequence: Number(delivery.seq) });
    const body = JSON.stringify(
      first.batch_id
        ? { type: 'batch', timestamp: first.body.timestamp, data: request.map(message) }
        : message(first),
    );
    const answer = await post(
      first.url,
      body,
      signedHeaders(secrets, first.batch_id ?? first.id, body, now),
      this.options,
    );
    const outcome = this.outcome(answer, first.attempts);
    const attempt = {
      status_code: answer.statusCode,
      response: answer.response,
      error: answer.error,
      latency_ms: answer.latencyMs,
    };
    return request.map((delivery) => ({ delivery, attempt, outcome }));
  }

  /** Where an answer leaves the messages of a request, at their attempt-th attempt. */
  private outcome(answer: Answer, attempts: number): AttemptOutcome['outcome'] {
    const code = answer.statusCode ?? 0;
    if (code >= 200 && code < 300) return { status: 'delivered' };
    // 410 Gone: the receiver says the endpoint is no more.
    const delay = code === 410 ? undefined : RETRY_DELAYS_MS[attempts - 1];
    if (delay === undefined) return { status: 'failed' };
    // A receiver's Retry-After (with 429 or 503, say) wins over the schedule.
    const wait = answer.retryAfterMs ?? delay * (0.9 + Math.random() * 0.2);
    return { status: 'pending', next: new Date(Date.now() + wait) };
  }
}

/** Why an endpoint pauses after an attempt that ended its message's retries (or answered 410). */
function whyPaused(attempt: AttemptOutcome['attempt']): string {
  if (attempt.status_code === 410) return 'the endpoint answered 410 Gone';
  const last = attempt.status_code ? `answered ${attempt.status_code}` : `gave no answer (${attempt.error})`;
  return `a message was tried ${RETRY_DELAYS_MS.length + 1} times, the last time it ${last}`;
}

/** Turns at least gapMs apart: next() waits for the rest of the gap since the last turn began. */
class Turns {
  private last = 0;
  constructor(private readonly gapMs: number) {}
  async next(): Promise<void> {
    const wait = this.last + this.gapMs - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    this.last = performance.now();
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
    // The whole attempt, a receiver that answers slowly included, ends within the timeout: inside its claim.
    const deadline = setTimeout(
      () => request.destroy(new Error(`no answer within ${options.timeoutMs} ms`)),
      options.timeoutMs,
    );
    request.on('close', () => clearTimeout(deadline));
    request.on('error', fail);
    request.end(body);
  });
}
