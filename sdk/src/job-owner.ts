import { hostname } from 'node:os';
import type { EventBus } from './events.js';

/**
 * Who runs a long job that an event follows (an addon install, a download), kept in the event's payload so that the
 * next start can tell a job still running in another process from one its process took down with it.
 */
export interface JobOwner {
  host: string;
  pid: number;
}

/** An unfinished job of a process on another machine, silent this long, is taken for dead. */
export const SILENT_JOB_MS = 5 * 60_000;
/** How often a running job touches its event, so other machines see it alive. */
export const HEARTBEAT_MS = 30_000;

/** This process, as a job's owner. */
export function thisProcess(): JobOwner {
  return { host: hostname(), pid: process.pid };
}

/** Whether the process that started a job, last heard of at lastHeard, may still be at it. */
export function mayStillRun(owner: unknown, lastHeard: Date, now = Date.now()): boolean {
  const recent = now - lastHeard.getTime() < SILENT_JOB_MS;
  const { host, pid } = (owner ?? {}) as Partial<JobOwner>;
  // Jobs of earlier versions name no process: none survives a restart.
  if (typeof host !== 'string' || typeof pid !== 'number') return false;
  if (host !== hostname()) return recent;
  // This process is only starting (a container restarted with the same pid): nothing of it runs yet.
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return recent; // alive, unless the pid went to another program since: then the heartbeat stopped
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM' && recent;
  }
}

/** Touch a job's event every HEARTBEAT_MS until the answered function is called. */
export function keepAlive(events: EventBus, eventId: string): () => void {
  const timer = setInterval(() => void events.update(eventId, {}).catch(() => undefined), HEARTBEAT_MS);
  timer.unref();
  return () => clearInterval(timer);
}
