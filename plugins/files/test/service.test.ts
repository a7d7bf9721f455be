import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { BadRequest, Conflict, NotFound, newId } from '@pipewright/sdk';
import type { ProjectFiles } from '../src/api.js';
import { PayloadTooLarge } from '../src/errors.js';
import { LocalDiskStorage } from '../src/storage.js';
import { buildWorld, type World } from './world.js';
import { filesRef } from '../src/api.js';

let w: World;
let files: ProjectFiles;

/** A stream that sends some bytes, then breaks. */
function brokenStream(): Readable {
  let sent = false;
  return new Readable({
    read() {
      if (!sent) {
        sent = true;
        this.push(Buffer.alloc(5000, 1));
      } else this.destroy(new Error('connection lost'));
    },
  });
}

const readAll = async (stream: Readable) => Buffer.concat(await stream.toArray());

/** The files (not folders: the two-character folders stay once made) under a project's storage. */
async function storedFiles(): Promise<string[]> {
  const entries = await readdir(w.projectDir(), { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

beforeAll(async () => {
  w = await buildWorld();
  files = w.core.services.get(filesRef);
});
afterAll(() => w.core.close());

describe('the files service other addons use', () => {
  it('stores a stream and reads it back whole or in part', async () => {
    const bytes = Buffer.from('0123456789abcdef');
    const record = await files.store('show', Readable.from([bytes.subarray(0, 7), bytes.subarray(7)]), {
      name: 'digits.txt',
      contentType: 'text/plain',
      author: null,
    });
    expect(record).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{32}$/),
      project: 'show',
      name: 'digits.txt',
      size: 16,
      contentType: 'text/plain',
      author: null,
      activityId: null,
      createdAt: expect.any(Date),
    });
    expect(await files.get('show', record.id)).toEqual(record);
    expect((await readAll(await files.open('show', record.id))).toString()).toBe('0123456789abcdef');
    expect((await readAll(await files.open('show', record.id, { start: 10, end: 12 }))).toString()).toBe(
      'abc',
    );
    await expect(files.open('show', newId())).rejects.toBeInstanceOf(NotFound);
    await expect(
      files.store('show', Readable.from([bytes]), {
        id: '../../etc',
        name: 'x',
        contentType: 'text/plain',
        author: null,
      }),
    ).rejects.toBeInstanceOf(BadRequest);
    expect(await files.get('show', newId())).toBeNull();
  });

  it('attaches files to activities and lists them by activity', async () => {
    const [a, b, c] = await Promise.all(
      [1, 2, 3].map((n) =>
        files.store('show', Readable.from([Buffer.from(`file ${n}`)]), {
          name: `${n}.txt`,
          contentType: 'text/plain',
          author: 'artie',
        }),
      ),
    );
    const first = newId();
    const second = newId();
    await w.core.db.transaction().execute(() => files.attach('show', [a.id, b.id], first));
    await files.attach('show', [c.id], second);
    expect((await files.listByActivity('show', [first])).map((f) => f.id).sort()).toEqual(
      [a.id, b.id].sort(),
    );
    expect((await files.listByActivity('show', [first, second])).length).toBe(3);
    await files.attach('show', [b.id], null);
    expect((await files.listByActivity('show', [first])).map((f) => f.id)).toEqual([a.id]);
    expect(await files.listByActivity('show', [])).toEqual([]);
  });

  it('keeps nothing of a stream that breaks, is too big or is empty, and frees the id', async () => {
    const before = await storedFiles();
    const id = newId();
    const file = { id, name: 'x.bin', contentType: 'application/octet-stream', author: 'artie' };
    await expect(files.store('show', brokenStream(), file)).rejects.toThrow('connection lost');
    const limit = w.files.uploadLimit;
    w.files.uploadLimit = 10;
    try {
      await expect(files.store('show', Readable.from([Buffer.alloc(11)]), file)).rejects.toBeInstanceOf(
        PayloadTooLarge,
      );
    } finally {
      w.files.uploadLimit = limit;
    }
    await expect(files.store('show', Readable.from([]), file)).rejects.toBeInstanceOf(BadRequest);
    expect(await files.get('show', id)).toBeNull();
    expect(await storedFiles()).toEqual(before);
    const stored = await files.store('show', Readable.from([Buffer.from('at last')]), file);
    expect(stored.id).toBe(id);
    await expect(files.store('show', Readable.from([Buffer.from('again')]), file)).rejects.toBeInstanceOf(
      Conflict,
    );
    expect((await readAll(await files.open('show', id))).toString()).toBe('at last');
  });

  it('removes files and says whether there was one', async () => {
    const record = await files.store('show', Readable.from([Buffer.from('bye')]), {
      name: 'bye.txt',
      contentType: 'text/plain',
      author: 'artie',
    });
    expect(await files.remove('show', record.id)).toBe(true);
    expect(await files.remove('show', record.id)).toBe(false);
    expect(await files.get('show', record.id)).toBeNull();
  });
});

describe('local disk storage', () => {
  it('writes all or nothing, reads ranges, deletes quietly and drops whole projects', async () => {
    const root = await mkdtemp(join(tmpdir(), 'files-storage-'));
    const storage = new LocalDiskStorage(root);
    const key = { project: 'p', group: 'uploads' as const, id: 'ab'.repeat(16) };
    expect(await storage.exists(key)).toBe(false);
    expect(await storage.put(key, Readable.from([Buffer.from('hello world')]), 100)).toBe(11);
    expect(storage.pathOf(key)).toBe(join(root, 'p', 'uploads', 'ab', key.id));
    expect((await readAll(await storage.get(key, { start: 6, end: 10 }))).toString()).toBe('world');
    // A failed replacement keeps the previous object whole, and no partial file lingers.
    await expect(storage.put(key, Readable.from([Buffer.alloc(101)]), 100)).rejects.toBeInstanceOf(
      PayloadTooLarge,
    );
    await expect(storage.put(key, brokenStream(), 1e6)).rejects.toThrow('connection lost');
    expect((await readAll(await storage.get(key))).toString()).toBe('hello world');
    expect(await readdir(join(root, 'p', 'uploads', 'ab'))).toEqual([key.id]);
    expect(await storage.mediaSource(key)).toBe(storage.pathOf(key));
    await storage.delete(key);
    await storage.delete(key);
    expect(await storage.exists(key)).toBe(false);
    await expect(storage.get(key)).rejects.toBeInstanceOf(NotFound);
    await storage.put(key, Readable.from([Buffer.from('again')]), 100);
    await storage.deleteProject('p');
    expect(await readdir(root)).toEqual([]);
  });
});
