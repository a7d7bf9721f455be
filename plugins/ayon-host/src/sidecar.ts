import { spawn, type ChildProcess } from 'node:child_process';
import type { FastifyBaseLogger } from 'fastify';
import { PipewrightError, ServiceUnavailable } from '@pipewright/sdk';
import { FrameReader, encodeFrame } from './frames.js';
import type { CallOrigin } from './origin.js';

// One Python process per server process runs the server code of AYON packages (see README.md for the protocol).
// Calls go both ways: the server asks the sidecar, and the sidecar calls back for data while it answers, naming the
// server's request it works for (its origin), so a callback acts with that request's identity and nothing more.

/** How to start the sidecar: the command line (python, possibly inside bubblewrap) and its environment. */
export interface SidecarCommand {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** Answers the sidecar's callbacks; the origin is the server's request the callback is made for. */
export type CallbackHandler = (
  method: string,
  params: Record<string, unknown>,
  origin: CallOrigin,
) => Promise<unknown>;

/** A call made while the sidecar starts (it does not wait for the start it is part of). */
export type DirectCall = (
  method: string,
  params: Record<string, unknown>,
  timeoutMs: number,
) => Promise<unknown>;
export type StartHook = (call: DirectCall) => Promise<void>;

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  origin: CallOrigin;
  timer: NodeJS.Timeout;
}

interface WireError {
  status?: number;
  /** A sentence; an endpoint's HTTPException may carry any JSON value, as FastAPI answers it. */
  detail?: unknown;
  traceback?: string;
}

/** An error the sidecar answered (an addon's AyonException, a refused settings value): its status and detail. */
export class SidecarError extends PipewrightError {
  constructor(
    status: number,
    detail: string,
    readonly traceback?: string,
  ) {
    super(status, detail, status === 400 ? 'bad-request' : 'addon-error');
  }
}

const FIRST_RETRY_MS = 250;
const LONGEST_RETRY_MS = 30_000;
/** A sidecar that ran this long without dying is healthy again: the next crash retries quickly. */
const HEALTHY_AFTER_MS = 60_000;

export class Sidecar {
  private child: ChildProcess | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private ready: Promise<void> | null = null;
  private retryMs = FIRST_RETRY_MS;
  private startedAt = 0;
  /** Once it ran, a sidecar that stops is started again (with back-off); one that never started is reported. */
  private keepRunning = false;
  /** The last line the sidecar logged: why it stopped, when it stops before answering. */
  private lastLine = '';
  private restartTimer: NodeJS.Timeout | null = null;
  private closing = false;
  /** Run after each start, before any other call: loads again what the previous process had loaded. */
  private readonly startHooks: StartHook[] = [];

  constructor(
    private readonly command: SidecarCommand,
    private readonly handleCallback: CallbackHandler,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Start (if needed) and wait until the sidecar answers. */
  start(): Promise<void> {
    if (this.closing) return Promise.reject(new ServiceUnavailable('The server is shutting down'));
    this.ready ??= this.spawn();
    return this.ready;
  }

  onStart(hook: StartHook): void {
    this.startHooks.push(hook);
  }

  /** Calls waiting for their answer. */
  get pendingCalls(): number {
    return this.pending.size;
  }

  /** The process id of the running sidecar (tests kill it to prove recovery). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /**
   * Ask the sidecar. Waits for a (re)start first; a call the sidecar does not answer in time, or loses by dying,
   * answers 503 in AYON's shape.
   */
  async call<T>(
    method: string,
    params: Record<string, unknown>,
    origin: CallOrigin,
    timeoutMs: number,
  ): Promise<T> {
    await this.start();
    return this.send<T>(method, params, origin, timeoutMs);
  }

  async close(): Promise<void> {
    this.closing = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    const child = this.child;
    if (!child) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.stdin?.end();
    const killer = setTimeout(() => child.kill('SIGKILL'), 2000);
    await exited;
    clearTimeout(killer);
  }

  private send<T>(
    method: string,
    params: Record<string, unknown>,
    origin: CallOrigin,
    timeoutMs: number,
  ): Promise<T> {
    const child = this.child;
    if (!child?.stdin?.writable)
      return Promise.reject(new ServiceUnavailable('The AYON addon host is not running'));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(
          new ServiceUnavailable(
            `The AYON addon host did not answer ${method} within ${Math.round(timeoutMs / 1000)} s`,
          ),
        );
      }, timeoutMs);
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject, origin, timer });
      child.stdin!.write(encodeFrame({ id, method, params }));
    });
  }

  private async spawn(): Promise<void> {
    const { command, args, env } = this.command;
    const child = spawn(command, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child = child;
    this.startedAt = Date.now();
    const reader = new FrameReader((message) => this.receive(child, message as Record<string, unknown>));
    child.stdout!.on('data', (chunk: Buffer) => {
      try {
        reader.push(chunk);
      } catch (error) {
        // Not our protocol any more: nothing it says can be trusted, so it is started afresh.
        this.log.error({ err: error }, 'AYON addon host sent a malformed frame; restarting it');
        child.kill('SIGKILL');
      }
    });
    let line = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      const lines = (line + chunk.toString('utf8')).split('\n');
      line = lines.pop() ?? '';
      for (const text of lines) {
        if (!text.trim()) continue;
        this.lastLine = text.trim();
        this.logLine(text);
      }
    });
    child.stdin!.on('error', () => undefined); // a dead pipe shows as the exit below
    const failed = new Promise<never>((_, reject) => {
      child.once('error', (error) =>
        reject(new ServiceUnavailable(`The AYON addon host cannot start: ${error.message}`)),
      );
      child.once('exit', (code, signal) => {
        const said = this.lastLine ? `: ${this.lastLine}` : '';
        reject(new ServiceUnavailable(`The AYON addon host stopped (${signal ?? `exit ${code}`})${said}`));
      });
    });
    failed.catch(() => undefined);
    child.once('exit', (code, signal) => this.exited(child, code, signal));
    this.lastLine = '';
    try {
      await Promise.race([this.send('hello', {}, { user: null }, 15_000), failed]);
      const call: DirectCall = (method, params, timeoutMs) =>
        this.send(method, params, { user: null }, timeoutMs);
      for (const hook of this.startHooks) await Promise.race([hook(call), failed]);
    } catch (error) {
      child.kill('SIGKILL');
      throw error;
    }
    this.keepRunning = true;
  }

  /** A line of the sidecar's log, at the level it starts with (DEBUG, INFO, WARNING, ...; anything else: info). */
  private logLine(text: string): void {
    const level = /^(TRACE|DEBUG|INFO|SUCCESS|WARNING|ERROR|CRITICAL)\s+/.exec(text)?.[1];
    const pino = {
      TRACE: 'trace',
      DEBUG: 'debug',
      WARNING: 'warn',
      ERROR: 'error',
      CRITICAL: 'fatal',
    } as const;
    const method = (level && level in pino ? pino[level as keyof typeof pino] : 'info') as 'info';
    this.log[method](`[ayon-host] ${level ? text.slice(level.length).trimStart() : text}`);
  }

  private exited(child: ChildProcess, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.child !== child) return;
    this.child = null;
    this.ready = null;
    const lost = [...this.pending.values()];
    this.pending.clear();
    for (const call of lost) {
      clearTimeout(call.timer);
      call.reject(new ServiceUnavailable('The AYON addon host stopped while answering; try again'));
    }
    if (this.closing || !this.keepRunning) return;
    if (Date.now() - this.startedAt > HEALTHY_AFTER_MS) this.retryMs = FIRST_RETRY_MS;
    this.log.error(
      `AYON addon host stopped (${signal ?? `exit ${code}`}); ${lost.length} call(s) answered 503; starting it again in ${this.retryMs} ms`,
    );
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      this.start().catch((error) => this.log.error({ err: error }, 'AYON addon host did not restart'));
    }, this.retryMs);
    this.retryMs = Math.min(this.retryMs * 2, LONGEST_RETRY_MS);
  }

  private receive(child: ChildProcess, message: Record<string, unknown>): void {
    const id = message.id as number;
    if (typeof message.method === 'string') {
      void this.answerCallback(child, id, message.method, message);
      return;
    }
    const call = this.pending.get(id);
    if (!call) return; // answered after its timeout
    this.pending.delete(id);
    clearTimeout(call.timer);
    if (message.error) {
      const error = message.error as WireError;
      const detail =
        typeof error.detail === 'string' ? error.detail : JSON.stringify(error.detail ?? 'The addon failed');
      call.reject(new SidecarError(error.status ?? 500, detail, error.traceback));
    } else call.resolve(message.result);
  }

  private async answerCallback(
    child: ChildProcess,
    id: number,
    method: string,
    message: Record<string, unknown>,
  ): Promise<void> {
    let reply: Record<string, unknown>;
    const origin = this.pending.get(message.origin as number)?.origin;
    try {
      // Only a request the server is waiting on lends its identity: anything else is refused.
      if (!origin)
        throw new PipewrightError(403, `${method}: the request it was made for is not running`, 'forbidden');
      const params = (message.params ?? {}) as Record<string, unknown>;
      reply = { id, result: (await this.handleCallback(method, params, origin)) ?? null };
    } catch (error) {
      const status = error instanceof PipewrightError ? error.status : 500;
      const detail = error instanceof PipewrightError ? error.message : `${method} failed on the server`;
      if (!(error instanceof PipewrightError))
        this.log.error({ err: error }, `AYON addon host callback ${method} failed`);
      reply = { id, error: { status, detail } };
    }
    if (this.child === child && child.stdin?.writable) child.stdin.write(encodeFrame(reply));
  }
}
