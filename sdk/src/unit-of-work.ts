import { AsyncLocalStorage } from 'node:async_hooks';
import {
  Kysely,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type TransactionBuilder,
  type TransactionSettings,
} from 'kysely';
import type { Database, DatabaseTransaction } from './addon.js';

// One unit of work: `db.transaction().execute(work)` on the shared handle opens it, and every query made through
// that handle in work's async context (any service of any addon) runs on its transaction, found through
// AsyncLocalStorage rather than passed along. A transaction opened inside joins it. Work registered with
// afterCommit (the event bus publishing the events written inside) runs once it has committed.

/** The open unit of work of one async context. */
interface Unit {
  database: Database;
  driver: UnitDriver;
  /** The connection holding the transaction; null until its BEGIN is under way. */
  connection: UnitConnection | null;
  trx: DatabaseTransaction | null;
  /** Transactions begun on the connection (the unit's own, plus any joining through a derived handle). */
  depth: number;
  /** Committed or rolled back: later queries of this context take a connection of their own. */
  ended: boolean;
  afterCommit: (() => unknown)[];
}

const units = new AsyncLocalStorage<Unit>();

/** What work inside a unit may ask of it. */
export interface UnitOfWork {
  /** Run fn once the transaction has committed (never when it rolls back); awaited before transaction() answers. */
  afterCommit(fn: () => unknown): void;
}

/** The unit of work open on this database in the current async context, or null outside one. */
export function currentUnitOfWork(db: Database): UnitOfWork | null {
  const unit = units.getStore();
  if (!unit || unit.ended || (unit.database !== db && unit.trx !== db)) return null;
  return { afterCommit: (fn) => void unit.afterCommit.push(fn) };
}

let commitObserver: (() => Promise<void>) | null = null;

/**
 * Run observer after every unit of work commits, before anything the unit registered to run after its commit:
 * the door of the core's crash-test failpoint (failpoints.ts), which stops there as a crash would. null removes it.
 */
export function observeCommits(observer: (() => Promise<void>) | null): void {
  commitObserver = observer;
}

/**
 * Run fn outside any unit of work, as if called from elsewhere: its queries do not join the open transaction
 * (progress a long batch reports while it runs). On the embedded database they wait for it to end, so never
 * await them from inside the unit.
 */
export function outsideUnitOfWork<T>(fn: () => T): T {
  return units.exit(fn);
}

/**
 * Lets the unit holding the only connection (PGlite) have it to itself: other queries wait until it ends, rather
 * than running inside a transaction that is not theirs. Waiting units go first so queries cannot starve them.
 */
class ConnectionGate {
  private users = 0;
  private held = false;
  private holdersWaiting = 0;
  private waiters: (() => void)[] = [];

  async share(): Promise<void> {
    while (this.held || this.holdersWaiting) await this.wait();
    this.users++;
  }

  unshare(): void {
    this.users--;
    this.wake();
  }

  async hold(): Promise<void> {
    this.holdersWaiting++;
    try {
      while (this.held || this.users) await this.wait();
    } finally {
      this.holdersWaiting--;
    }
    this.held = true;
  }

  unhold(): void {
    this.held = false;
    this.wake();
  }

  private wait() {
    return new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  private wake() {
    const waiting = this.waiters;
    this.waiters = [];
    waiting.forEach((resolve) => resolve());
  }
}

/** The connection of a unit: a wrapper of its own, so the driver knows it whichever context hands it back. */
class UnitConnection implements DatabaseConnection {
  /** Queries holding it, the unit's own transaction included; the last to let go after the end releases it. */
  holds = 0;

  constructor(
    readonly raw: DatabaseConnection,
    readonly unit: Unit,
  ) {}

  executeQuery: DatabaseConnection['executeQuery'] = (...args) => this.raw.executeQuery(...args);
  streamQuery: DatabaseConnection['streamQuery'] = (...args) => this.raw.streamQuery(...args);
}

/** The dialect's driver, handing the open unit's connection to every query made in its async context. */
class UnitDriver implements Driver {
  private readonly gate: ConnectionGate | null;

  constructor(
    private readonly inner: Driver,
    singleConnection: boolean,
  ) {
    this.gate = singleConnection ? new ConnectionGate() : null;
  }

  init(options?: Parameters<Driver['init']>[0]) {
    return this.inner.init(options);
  }

  destroy() {
    return this.inner.destroy();
  }

  async acquireConnection(options?: Parameters<Driver['acquireConnection']>[0]): Promise<DatabaseConnection> {
    const store = units.getStore();
    const unit = store?.driver === this && !store.ended ? store : undefined;
    if (unit?.connection) {
      unit.connection.holds++;
      return unit.connection;
    }
    if (unit) {
      // The unit's own BEGIN: the first connection its context asks for.
      await this.gate?.hold();
      try {
        unit.connection = new UnitConnection(await this.inner.acquireConnection(options), unit);
      } catch (error) {
        unit.ended = true;
        this.gate?.unhold();
        throw error;
      }
      unit.connection.holds++;
      return unit.connection;
    }
    await this.gate?.share();
    return this.inner.acquireConnection(options).catch((error) => {
      this.gate?.unshare();
      throw error;
    });
  }

  async releaseConnection(connection: DatabaseConnection) {
    if (!(connection instanceof UnitConnection)) {
      await this.inner.releaseConnection(connection);
      this.gate?.unshare();
      return;
    }
    if (--connection.holds > 0 || !connection.unit.ended) return;
    await this.inner.releaseConnection(connection.raw);
    this.gate?.unhold();
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
    if (!(connection instanceof UnitConnection)) return this.inner.beginTransaction(connection, settings);
    const { unit } = connection;
    if (unit.depth++ > 0) return; // a transaction of a derived handle (withSchema, ...) joins the unit
    try {
      await this.inner.beginTransaction(connection.raw, settings);
    } catch (error) {
      unit.ended = true;
      throw error;
    }
  }

  async commitTransaction(connection: DatabaseConnection) {
    if (!(connection instanceof UnitConnection)) return this.inner.commitTransaction(connection);
    if (--connection.unit.depth > 0) return;
    connection.unit.ended = true;
    await this.inner.commitTransaction(connection.raw);
  }

  async rollbackTransaction(connection: DatabaseConnection) {
    if (!(connection instanceof UnitConnection)) return this.inner.rollbackTransaction(connection);
    if (--connection.unit.depth > 0) return;
    connection.unit.ended = true;
    await this.inner.rollbackTransaction(connection.raw);
  }

  savepoint: Driver['savepoint'] = (connection, ...args) => this.inner.savepoint!(raw(connection), ...args);
  rollbackToSavepoint: Driver['rollbackToSavepoint'] = (connection, ...args) =>
    this.inner.rollbackToSavepoint!(raw(connection), ...args);
  releaseSavepoint: Driver['releaseSavepoint'] = (connection, ...args) =>
    this.inner.releaseSavepoint!(raw(connection), ...args);
}

const raw = (connection: DatabaseConnection) =>
  connection instanceof UnitConnection ? connection.raw : connection;

/** The shared handle: a Kysely whose transaction() opens (or joins) the unit of work of its async context. */
class UnitOfWorkDatabase extends Kysely<any> {
  constructor(
    dialect: Dialect,
    private readonly driver: () => UnitDriver,
  ) {
    super({ dialect });
  }

  override transaction(): TransactionBuilder<any> {
    return this.unitBuilder(super.transaction());
  }

  private unitBuilder(builder: TransactionBuilder<any>): TransactionBuilder<any> {
    return {
      setAccessMode: (mode) => this.unitBuilder(builder.setAccessMode(mode)),
      setIsolationLevel: (level) => this.unitBuilder(builder.setIsolationLevel(level)),
      execute: (work) => this.runUnit(builder, work),
    } as TransactionBuilder<any>;
  }

  private async runUnit<T>(builder: TransactionBuilder<any>, work: (trx: DatabaseTransaction) => Promise<T>) {
    const open = units.getStore();
    if (open && open.database === this && !open.ended && open.trx) return work(open.trx);
    const unit: Unit = {
      database: this,
      driver: this.driver(),
      connection: null,
      trx: null,
      depth: 0,
      ended: false,
      afterCommit: [],
    };
    const result = await units.run(unit, () =>
      builder.execute((trx) => {
        unit.trx = trx;
        return work(trx);
      }),
    );
    await commitObserver?.();
    // Outside the unit's context: what runs after commit is no part of it.
    await units.exit(async () => {
      for (const fn of unit.afterCommit) await fn();
    });
    return result;
  }
}

/**
 * The database handle the server shares with every addon, over a Kysely dialect. singleConnection: the dialect
 * has one connection (PGlite), which a unit of work then holds alone until it ends.
 */
export function unitOfWorkDatabase(dialect: Dialect, options: { singleConnection: boolean }): Database {
  let driver: UnitDriver | null = null;
  const wrapped: Dialect = {
    // Kysely would take a mutex around every query of a single connection, so a query joining the unit would wait
    // for the unit itself: the gate above takes that place.
    createAdapter: () =>
      Object.create(dialect.createAdapter(), { supportsMultipleConnections: { get: () => true } }),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createDriver: () => (driver = new UnitDriver(dialect.createDriver(), options.singleConnection)),
  };
  return new UnitOfWorkDatabase(wrapped, () => driver!);
}
