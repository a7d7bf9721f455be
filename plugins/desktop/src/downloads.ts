import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import {
  DownloadFailed,
  PipewrightError,
  keepAlive,
  mayStillRun,
  openDownload,
  thisProcess,
  type EventBus,
} from '@pipewright/sdk';
import type { DesktopFiles } from './files.js';
import type { PackageStore } from './service.js';

const TOPICS = ['installer.install_from_url', 'dependency_package.install_from_url'];

/** Largest installer or dependency package fetched from a URL (dependency packages hold whole Python environments). */
export const MAX_DOWNLOAD_BYTES = 4 * 2 ** 30;

/**
 * POST ...?url= as AYON does it: an {kind}.install_from_url event (one per url, set back to pending when the same
 * url is asked again) follows a download that runs in the background of this process. The file lands under the
 * registered filename and goes through the same size and checksum checks as an upload. The URL was checked by the
 * route (http or https only); the download streams to disk through the sdk's openDownload, up to
 * MAX_DOWNLOAD_BYTES (4 GiB).
 */
export class UrlDownloads {
  private readonly running = new Set<Promise<void>>();
  private readonly abort = new AbortController();

  constructor(
    private readonly events: EventBus,
    private readonly files: DesktopFiles,
    private readonly log: FastifyBaseLogger,
  ) {}

  /**
   * At start: a download left unfinished by a process that is gone (killed, crashed) is marked failed, so clients
   * polling its event learn that it must be asked for again.
   */
  async recover(): Promise<void> {
    const unfinished = await this.events.find({ topics: TOPICS, statuses: ['pending', 'in_progress'] });
    for (const row of unfinished) {
      if (mayStillRun(row.payload.worker, new Date(row.updatedAt))) continue;
      const filename = (row.summary as { filename?: string }).filename ?? 'the file';
      await this.events.update(String(row.id).replaceAll('-', ''), {
        status: 'failed',
        description: `Failed to download ${filename}: the server stopped before the download finished; ask for it again`,
      });
      this.log.warn(`desktop download ${row.id} was interrupted by a server stop; marked failed`);
    }
  }

  /** Start fetching the file of a registered record; answers the id of the event that follows it. */
  async start(store: PackageStore<any>, filename: string, url: string, user: string): Promise<string> {
    const { kind } = store;
    const topic = `${kind.key}.install_from_url`;
    const hash = createHash('sha256').update(`${kind.eventHashPrefix}${url}`).digest('hex');
    const [previous] = await this.events.find({ topics: [topic], hash });
    let eventId: string;
    if (previous) {
      eventId = previous.id;
      await this.events.update(eventId, {
        status: 'pending',
        description: `Reinstalling ${kind.label.toLowerCase()} from URL`,
        summary: { url, filename },
        payload: { worker: thisProcess() },
        retries: 0,
      });
    } else {
      eventId = (
        await this.events.emit({
          topic,
          hash,
          user,
          status: 'pending',
          description: `Installing ${kind.label.toLowerCase()} from URL`,
          summary: { url, filename },
          // Who downloads, for the next start to tell an interrupted download from one still running elsewhere.
          payload: { worker: thisProcess() },
        })
      ).id;
    }
    const job = this.fetchInto(store, filename, url, eventId).finally(() => this.running.delete(job));
    this.running.add(job);
    return eventId;
  }

  private async fetchInto(store: PackageStore<any>, filename: string, url: string, eventId: string) {
    const stopHeartbeat = keepAlive(this.events, eventId);
    try {
      await this.events.update(eventId, { status: 'in_progress' });
      const algorithm = await store.uploadAlgorithm(filename);
      const download = await openDownload(url, { maxBytes: MAX_DOWNLOAD_BYTES, signal: this.abort.signal });
      const received = await this.files.receive(download.body, algorithm);
      if (received.size === 0) {
        await this.files.discard(received);
        throw new DownloadFailed('the server sent an empty file');
      }
      await store.acceptUpload(filename, received);
      await this.events.update(eventId, {
        status: 'finished',
        description: `${store.kind.label} ${filename} downloaded (${received.size} bytes)`,
      });
    } catch (error) {
      // Our own errors are worded for the event; others (a full disk, ...) may name paths of this server.
      const reason =
        error instanceof PipewrightError
          ? error.message
          : 'the server could not store the file (see its log)';
      this.log.warn({ err: error, url, filename }, 'desktop download failed');
      await this.events
        .update(eventId, { status: 'failed', description: `Failed to download ${filename}: ${reason}` })
        .catch(() => undefined);
    } finally {
      stopHeartbeat();
    }
  }

  /** Wait for running downloads (tests, and a graceful stop after aborting them). */
  async settle(): Promise<void> {
    await Promise.all([...this.running]);
  }

  async close(): Promise<void> {
    this.abort.abort();
    await this.settle();
  }
}
