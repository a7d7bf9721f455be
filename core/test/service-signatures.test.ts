import { describe, expect, it } from '@jest/globals';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { scanServices } from './service-signatures.js';

// Issue 25: no service method in sdk/ or plugins/ takes a transaction argument. A service uses the handle it was
// built with and the caller's unit of work carries the transaction, so a call inside transaction() joins it.

const ROOT = resolve(import.meta.dirname, '../..');

/** What may still take a handle, and why. Keep it short: each entry is a debt or a deliberate exception. */
const ALLOWED = new Set([
  // A migration runs in the transaction the migrator opens for it; it is not a service.
  'sdk/src/addon.ts up(db)',
]);

const describeParameter = (found: { file: string; method: string; parameter: string }) =>
  `${found.file} ${found.method}(${found.parameter})`;

describe('service signatures', () => {
  it('have no method in sdk/src or plugins/*/src taking a database handle or transaction', () => {
    const offenders = scanServices(ROOT)
      .map(describeParameter)
      .filter((entry) => !ALLOWED.has(entry));
    expect(offenders).toEqual([]);
  });

  it('catch each way a transaction is passed by hand, and leave handles held by constructors alone', () => {
    const root = mkdtempSync(join(tmpdir(), 'signatures-'));
    mkdirSync(join(root, 'sdk/src'), { recursive: true });
    mkdirSync(join(root, 'plugins/demo/src/migrations'), { recursive: true });
    writeFileSync(
      join(root, 'plugins/demo/src/store.ts'),
      `import type { Database, DatabaseTransaction } from '@pipewright/sdk';
      type Db = Database | DatabaseTransaction;
      export interface Notes {
        add(trx: DatabaseTransaction, name: string): Promise<void>;
        close(name: string, options?: { trx?: DatabaseTransaction }): Promise<void>;
      }
      export class NoteStore {
        constructor(private readonly db: Database) {}
        async get(name: string, db: Database = this.db) {}
        async has(name: string, reader = this.db) {}
        async put(db: Db, name: string) {}
        remove = async (name: string, trx: Transaction<any>) => {};
        async run(work: (trx: DatabaseTransaction) => Promise<void>) {}
        async list(): Promise<string[]> { return []; }
      }
      async function insertMany(trx: DatabaseTransaction, rows: unknown[]) {}
      export function noteRoutes(db: Database) {}`,
    );
    writeFileSync(
      join(root, 'plugins/demo/src/migrations/0001.ts'),
      `export const up = async (trx: DatabaseTransaction) => {};`,
    );
    expect(scanServices(root).map(describeParameter)).toEqual([
      'plugins/demo/src/store.ts add(trx)',
      'plugins/demo/src/store.ts close(options)',
      'plugins/demo/src/store.ts get(db)',
      'plugins/demo/src/store.ts has(reader)',
      'plugins/demo/src/store.ts put(db)',
      'plugins/demo/src/store.ts remove(trx)',
      'plugins/demo/src/store.ts insertMany(trx)',
    ]);
  });
});
