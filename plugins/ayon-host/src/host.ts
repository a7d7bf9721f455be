import type { FastifyBaseLogger } from 'fastify';
import { Sidecar, type CallbackHandler } from './sidecar.js';
import { hostCommand } from './isolation.js';
import { SERVER, type CallOrigin } from './origin.js';
import type { PackageDescription } from './description.js';

/** A package folder and the name and version its package.py gives. */
export interface PackageRef {
  directory: string;
  name: string;
  version: string;
}

/** How long each kind of call may take: settings are computed while a user waits; endpoints may do real work. */
export const TIMEOUTS = { load: 60_000, settings: 15_000, actions: 30_000, endpoint: 60_000 } as const;

/**
 * The AYON packages' server code, as the rest of the addon sees it: one sidecar, the packages loaded in it (loaded
 * again whenever it restarts), and calls addressed to one package version.
 */
export class AyonHost {
  /** The packages loaded, by name@version: loaded again after a restart. */
  private readonly loaded = new Map<string, PackageRef>();
  readonly isolation: string;

  private constructor(
    private readonly sidecar: Sidecar,
    isolation: string,
  ) {
    this.isolation = isolation;
    sidecar.onStart(async (call) => {
      for (const ref of this.loaded.values()) {
        await call('load', { ...ref }, TIMEOUTS.load).catch(() => undefined);
      }
    });
  }

  /**
   * Start the sidecar on this Python; answers the reason it cannot run (no python3, no pydantic) instead of a
   * host, so the server goes on without it.
   */
  static async start(
    python: string,
    dataDir: string,
    callbacks: CallbackHandler,
    log: FastifyBaseLogger,
  ): Promise<AyonHost | { unavailable: string }> {
    const command = hostCommand(python, dataDir);
    const sidecar = new Sidecar(command, callbacks, log);
    try {
      await sidecar.start();
    } catch (error) {
      await sidecar.close();
      return { unavailable: (error as Error).message };
    }
    return new AyonHost(sidecar, command.isolation);
  }

  /** The sidecar's process, and the calls it has not answered yet (tests kill it mid-call to prove recovery). */
  get pid(): number | undefined {
    return this.sidecar.pid;
  }

  get pendingCalls(): number {
    return this.sidecar.pendingCalls;
  }

  /** Import a package in the sidecar (it checks the name and version package.py gives); again after every restart. */
  async load(ref: PackageRef): Promise<PackageDescription> {
    const description = await this.sidecar.call<PackageDescription>(
      'load',
      { ...ref },
      SERVER,
      TIMEOUTS.load,
    );
    this.loaded.set(`${ref.name}@${ref.version}`, ref);
    return description;
  }

  async unload(name: string, version: string): Promise<void> {
    if (!this.loaded.delete(`${name}@${version}`)) return;
    await this.sidecar.call('unload', { name, version }, SERVER, TIMEOUTS.settings).catch(() => undefined);
  }

  /** Call one package version's code. */
  call<T>(
    name: string,
    version: string,
    method: string,
    params: Record<string, unknown>,
    origin: CallOrigin,
    timeoutMs: number,
  ): Promise<T> {
    return this.sidecar.call<T>(method, { name, version, ...params }, origin, timeoutMs);
  }

  close(): Promise<void> {
    return this.sidecar.close();
  }
}
