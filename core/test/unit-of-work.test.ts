import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sql } from 'kysely';
import {
  defineAddon,
  outsideUnitOfWork,
  type AddonContext,
  type Database,
  type EventMessage,
} from '@pipewright/sdk';
import { bootTestCore, type TestCore } from '../src/testing.js';

// A service as addons write them: it holds the shared handle and takes no transaction argument.
class NoteBook {
  constructor(private readonly db: Database) {}

  async add(name: string) {
    await this.db.insertInto('public.uow_notes').values({ name }).execute();
  }

  async has(name: string) {
    const row = await this.db
      .selectFrom('public.uow_notes')
      .select('name')
      .where('name', '=', name)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** A service that opens a transaction of its own: inside a unit it joins it. */
  async addTwo(first: string, second: string) {
    await this.db.transaction().execute(async () => {
      await this.add(first);
      await this.add(second);
    });
  }
}

let ctx: AddonContext;
const notes = defineAddon({
  name: 'uow-notes',
  version: '1.0.0',
  title: 'Unit of work notes',
  migrations: {
    studio: [{ name: '0001', up: (db) => sql`CREATE TABLE uow_notes (name text PRIMARY KEY)`.execute(db) }],
  },
  setup(context) {
    ctx = context;
  },
});

describe(`one unit of work (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, () => {
  let core: TestCore;
  let book: NoteBook;
  const heard: EventMessage[] = [];
  beforeAll(async () => {
    core = await bootTestCore({ addons: [], extraAddons: [notes] });
    book = new NoteBook(ctx.db);
    ctx.events.subscribe('uow.*', (message) => void heard.push(message));
  });
  afterAll(() => core.close());

  it('lets a service called inside transaction() see the uncommitted row, and one called outside not', async () => {
    let outside: Promise<boolean> | undefined;
    await expect(
      ctx.db.transaction().execute(async () => {
        await book.add('draft');
        expect(await book.has('draft')).toBe(true);
        // On PGlite this read waits for the unit to end; on PostgreSQL it runs now, on another connection.
        outside = outsideUnitOfWork(() => book.has('draft'));
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await outside).toBe(false);
    expect(await book.has('draft')).toBe(false);

    await ctx.db.transaction().execute(() => book.add('kept'));
    expect(await book.has('kept')).toBe(true);
  });

  it('joins a transaction opened inside the unit, so a failure afterwards undoes it too (and nothing hangs)', async () => {
    await expect(
      ctx.db.transaction().execute(async () => {
        await book.addTwo('inner-a', 'inner-b');
        expect(await book.has('inner-b')).toBe(true);
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect(await book.has('inner-a')).toBe(false);
  });

  it('writes events with the transaction and publishes them only after it commits; a rollback publishes none', async () => {
    heard.length = 0;
    let seenInside = -1;
    const committed = await ctx.db.transaction().execute(async () => {
      await book.add('evented');
      const [{ id }] = await ctx.events.emitMany([
        { topic: 'uow.note.created', summary: { name: 'evented' } },
      ]);
      await new Promise((tick) => setTimeout(tick, 10));
      seenInside = heard.length;
      return id;
    });
    expect(seenInside).toBe(0);
    await new Promise((tick) => setTimeout(tick, 50));
    expect(heard.map((m) => m.id)).toEqual([committed]);
    expect(await ctx.events.get(committed)).toMatchObject({ topic: 'uow.note.created' });
    const outbox = await sql<{ n: number }>`SELECT count(*)::int AS n FROM public.event_outbox`.execute(
      ctx.db,
    );
    expect(outbox.rows[0].n).toBe(0);

    heard.length = 0;
    let lost = '';
    await expect(
      ctx.db.transaction().execute(async () => {
        lost = (await ctx.events.emit({ topic: 'uow.note.created' })).id;
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await new Promise((tick) => setTimeout(tick, 50));
    expect(heard).toEqual([]);
    expect(await ctx.events.get(lost)).toBeNull();
  });

  it('refuses an event whose hash is taken inside a unit with 409, and rolls the unit back', async () => {
    await ctx.events.emit({ topic: 'uow.note.hashed', hash: 'uow-hash-1' });
    await expect(
      ctx.db.transaction().execute(async () => {
        await book.add('hashed');
        await ctx.events.emit({ topic: 'uow.note.hashed', hash: 'uow-hash-1' });
      }),
    ).rejects.toMatchObject({ status: 409 });
    expect(await book.has('hashed')).toBe(false);
  });

  it('publishes at start the events a crash left committed but unpublished', async () => {
    heard.length = 0;
    // What a process killed between commit and publish leaves behind: the events and their outbox row.
    const id = (await ctx.events.emit({ topic: 'uow.note.orphan' })).id;
    await new Promise((tick) => setTimeout(tick, 20));
    heard.length = 0;
    await sql`INSERT INTO public.event_outbox (id, event_ids) VALUES (${id}, ARRAY[${id}]::uuid[])`.execute(
      ctx.db,
    );
    expect(await core.events.publishUnpublished()).toBe(1);
    await new Promise((tick) => setTimeout(tick, 20));
    expect(heard.map((m) => [m.id, m.topic])).toEqual([[id, 'uow.note.orphan']]);
    expect(await core.events.publishUnpublished()).toBe(0);
  });
});
