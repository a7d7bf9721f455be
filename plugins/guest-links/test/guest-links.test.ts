import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bootTestCore, seedUser, type TestCore } from '@pipewright/core/testing';
import { activitiesRef } from '@pipewright/plugin-activities/api';
import { filesRef } from '@pipewright/plugin-files/api';

// Guest links through their routes: boss (a manager) shares a list of versions and single versions; guests open the
// links without an account. Other versions, files and projects stay out of reach; revoking cuts an open stream.
let core: TestCore;
let boss: string;
let artie: string;
let fran: string;
let base: string;
let media: string;
const P = '/api/projects/show';
const v: Record<string, string> = {};
const reviewable: Record<string, { activityId: string; fileId: string }> = {};
let listId: string;
let otherProjectFile: string;

const as = (token: string) => (method: string, url: string, body?: unknown) =>
  core.request(method, url, { token, body });
const guest = (session: string | null, method: string, url: string, body?: unknown) =>
  core.request(method, url, { body, headers: session ? { 'x-guest-session': session } : {} });

async function make(path: string, body: unknown) {
  const res = await as(boss)('POST', path, body);
  if (res.status !== 201) throw new Error(`${path}: ${res.status} ${res.text}`);
  return res.body.id as string;
}

/** A link made by boss: its id and token. */
async function link(body: Record<string, unknown>) {
  const res = await as(boss)('POST', `${P}/guest-links`, body);
  expect(res.status).toBe(201);
  return res.body as { id: string; token: string; url: string };
}

async function open(token: string, name = 'Clara Client', password?: string) {
  const res = await guest(null, 'POST', '/api/guest/open', { token, name, password });
  expect(res.status).toBe(200);
  return res.body.session as string;
}

async function upload(versionId: string, file: string, type: string) {
  const res = await core.request('POST', `${P}/versions/${versionId}/reviewables`, {
    token: boss,
    body: await readFile(join(media, file)),
    headers: { 'content-type': type, 'x-file-name': file },
  });
  expect(res.status).toBe(200);
  return { activityId: res.body.activityId as string, fileId: res.body.fileId as string };
}

const logOf = async (id: string) =>
  ((await as(boss)('GET', `${P}/guest-links/${id}/log`)).body.entries as { action: string }[]).map(
    (e) => e.action,
  );

beforeAll(async () => {
  media = await mkdtemp(join(tmpdir(), 'guest-links-'));
  await promisify(execFile)('/usr/bin/ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi'],
    ...['-i', 'testsrc=size=160x90:rate=24:duration=1', '-pix_fmt', 'yuv420p', join(media, 'clip.mp4')],
  ]);
  core = await bootTestCore({ addons: ['guest-links', 'reviewables', 'graphql', 'access', 'users'] });
  base = `http://127.0.0.1:${(await core.app.listen({ port: 0, host: '127.0.0.1' })).split(':').pop()}`;
  boss = await seedUser(core, 'boss', { isManager: true });
  artie = await seedUser(core, 'artie', { accessGroups: { show: ['artist'] } });
  fran = await seedUser(core, 'fran', { accessGroups: { show: ['freelancer'] } });
  await make('/api/projects', { name: 'show', code: 'sh' });
  await make('/api/projects', { name: 'other', code: 'ot' });
  const shot = await make(`${P}/folders`, {
    name: 'sh010',
    folderType: 'Shot',
    attrib: { frameStart: 1001 },
  });
  const product = await make(`${P}/products`, { name: 'compMain', productType: 'render', folderId: shot });
  for (const n of [1, 2, 3, 4]) v[n] = await make(`${P}/versions`, { version: n, productId: product });
  for (const n of [1, 2, 3]) reviewable[n] = await upload(v[n]!, 'clip.mp4', 'video/mp4');
  listId = await make(`${P}/lists`, {
    entityType: 'version',
    label: 'Client review',
    items: [{ entityId: v[1] }, { entityId: v[2] }],
  });
  // A large reviewable on version 4, for a download that is still under way when its link is revoked.
  const big = await core.services.get(filesRef).store('show', Readable.from([randomBytes(48 << 20)]), {
    name: 'big.mp4',
    contentType: 'video/mp4',
    author: 'boss',
  });
  await core.services.get(activitiesRef).create('show', 'version', v[4]!, {
    type: 'reviewable',
    author: 'boss',
    body: "Uploaded a reviewable 'big'",
    files: [big.id],
  });
  reviewable[4] = { activityId: '', fileId: big.id };
  const elsewhere = await core.request('POST', '/api/projects/other/files', {
    token: boss,
    body: await readFile(join(media, 'clip.mp4')),
    headers: { 'content-type': 'video/mp4', 'x-file-name': 'clip.mp4' },
  });
  otherProjectFile = elsewhere.body.id;
}, 60_000);

afterAll(async () => {
  await core?.close();
  if (media) await rm(media, { recursive: true, force: true });
});

describe('guest links', () => {
  it('answer their token once and keep only its hash', async () => {
    const made = await link({ listId, canComment: true });
    expect(made.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(made.url).toBe(`/guest#${made.token}`);
    const rows = (await sql`SELECT * FROM guest_links`.execute(core.db)).rows as Record<string, unknown>[];
    const row = rows.find((r) => String(r.id).replaceAll('-', '') === made.id)!;
    expect(row.token_hash).toBe(createHash('sha256').update(made.token).digest('hex'));
    expect(JSON.stringify(rows)).not.toContain(made.token);
    const listed = await as(boss)('GET', `${P}/guest-links?listId=${listId}`);
    expect(listed.status).toBe(200);
    expect(listed.body.links.map((l: { id: string }) => l.id)).toContain(made.id);
    expect(JSON.stringify(listed.body)).not.toContain(made.token);
    // A version link, by a manager; an artist may not share a list they only read, nor a version they cannot change.
    expect((await link({ versionId: v[3] })).token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await as(artie)('POST', `${P}/guest-links`, { listId })).status).toBe(403);
    expect((await as(boss)('POST', `${P}/guest-links`, {})).status).toBe(422);
  });

  it('show a guest only what the link holds', async () => {
    const { token } = await link({ listId, canComment: true });
    const peek = await guest(null, 'POST', '/api/guest/link', { token });
    expect(peek.body).toEqual({ needsPassword: false, label: 'Client review', expiresAt: null });
    expect((await guest(null, 'GET', '/api/guest/items')).status).toBe(401);
    const session = await open(token);
    const items = await guest(session, 'GET', '/api/guest/items');
    expect(items.status).toBe(200);
    expect(items.body.guestName).toBe('Clara Client');
    expect(items.body.versions.map((x: { id: string }) => x.id)).toEqual([v[1], v[2]]);
    const first = items.body.versions[0].reviewables[0];
    expect(first).toMatchObject({ activityId: reviewable[1]!.activityId, fileId: reviewable[1]!.fileId });
    expect(first.firstFrame).toBe(1001);
    expect(first.frameCount).toBe(24);
    expect(items.body.versions[0].title).toBe('sh010 / compMain v001');
    // Everything else answers as if it did not exist.
    const outside = [
      ['GET', `/api/guest/files/${reviewable[3]!.fileId}`],
      ['GET', `/api/guest/files/${otherProjectFile}`],
      ['GET', `/api/guest/versions/${v[3]}/comments`],
      ['POST', `/api/guest/versions/${v[3]}/comments`, { body: 'sneaky' }],
      ['GET', `/api/guest/versions/${v[3]}/reviewables/${reviewable[3]!.activityId}/annotations`],
      ['GET', `/api/guest/versions/${v[1]}/reviewables/${reviewable[3]!.activityId}/annotations`],
    ] as const;
    for (const [method, url, body] of outside)
      expect([method, url, (await guest(session, method, url, body)).status]).toEqual([method, url, 404]);
    // Studio routes stay closed to a guest session.
    expect((await guest(session, 'GET', `${P}/versions/${v[1]}`)).status).toBe(401);
    expect((await guest('x'.repeat(43), 'GET', '/api/guest/items')).status).toBe(401);
  });

  it('stream reviewables by range, and download only where the link allows', async () => {
    const { id, token } = await link({ versionId: v[1], canDownload: false });
    const session = await open(token);
    const url = `/api/guest/files/${reviewable[1]!.fileId}`;
    const part = await core.request('GET', url, {
      headers: { 'x-guest-session': session, range: 'bytes=0-99' },
    });
    expect(part.status).toBe(206);
    expect(part.bytes.length).toBe(100);
    expect(part.headers['content-range']).toMatch(/^bytes 0-99\/\d+$/);
    const whole = await core.request('GET', `${url}?session=${session}`);
    expect(whole.status).toBe(200);
    expect(whole.bytes.subarray(0, 100)).toEqual(part.bytes);
    expect(whole.headers['content-disposition']).toMatch(/^inline/);
    expect((await guest(session, 'GET', `${url}?download=true`)).status).toBe(403);
    const allowed = await link({ versionId: v[1], canDownload: true });
    const download = await guest(await open(allowed.token), 'GET', `${url}?download=true`);
    expect(download.status).toBe(200);
    expect(download.headers['content-disposition']).toMatch(/^attachment/);
    expect(await logOf(allowed.id)).toEqual(['open', 'download']);
    expect(await logOf(id)).toEqual(['open']);
  });

  it("take comments under the guest's name, which the studio reads in the version's feed", async () => {
    const readOnly = await link({ versionId: v[2] });
    const nope = await guest(await open(readOnly.token), 'POST', `/api/guest/versions/${v[2]}/comments`, {
      body: 'Can I?',
    });
    expect(nope.status).toBe(403);
    const { id, token } = await link({ versionId: v[2], canComment: true });
    const session = await open(token, '  Clara   Client ');
    const said = await guest(session, 'POST', `/api/guest/versions/${v[2]}/comments`, {
      body: 'The sky is too blue',
      frame: 1005,
    });
    expect(said.status).toBe(201);
    const feed = await as(artie)('POST', '/graphql', {
      query: `query($id: String!) { project(name: "show") { version(id: $id) { activities(last: 50) {
        edges { node { activityType body author { name attrib { fullName } } activityData } } } } } }`,
      variables: { id: v[2] },
    });
    const comments = feed.body.data.project.version.activities.edges
      .map((e: { node: any }) => e.node)
      .filter((n: { activityType: string }) => n.activityType === 'comment');
    expect(comments).toHaveLength(1);
    expect(comments[0].body).toBe('The sky is too blue');
    expect(comments[0].author.name).toBe('Clara Client (guest)');
    expect(JSON.parse(comments[0].activityData)).toMatchObject({ guestName: 'Clara Client', frame: 1005 });
    const read = await guest(session, 'GET', `/api/guest/versions/${v[2]}/comments`);
    expect(read.body.comments).toEqual([
      expect.objectContaining({
        author: 'Clara Client',
        guest: true,
        body: 'The sky is too blue',
        frame: 1005,
      }),
    ]);
    expect(await logOf(id)).toEqual(['open', 'comment']);
  });

  it('approve only where the link allows', async () => {
    const plain = await link({ versionId: v[3] });
    expect((await guest(await open(plain.token), 'POST', `/api/guest/versions/${v[3]}/approve`)).status).toBe(
      403,
    );
    expect((await as(boss)('GET', `${P}/versions/${v[3]}`)).body.status).not.toBe('Approved');
    const { id, token } = await link({ versionId: v[3], canApprove: true });
    const approved = await guest(await open(token, 'Dana'), 'POST', `/api/guest/versions/${v[3]}/approve`);
    expect(approved.status).toBe(200);
    expect(approved.body.status).toBe('Approved');
    expect((await as(boss)('GET', `${P}/versions/${v[3]}`)).body.status).toBe('Approved');
    expect(await logOf(id)).toEqual(['open', 'approve']);
    // Sharing a version takes the rights to change it: a freelancer without a task there does not even see it.
    expect((await as(fran)('POST', `${P}/guest-links`, { versionId: v[3] })).status).toBe(404);
    expect((await as(artie)('POST', `${P}/guest-links`, { versionId: v[3], canApprove: true })).status).toBe(
      201,
    );
  });

  it('stop working when they expire', async () => {
    const { id, token } = await link({
      versionId: v[1],
      expiresAt: new Date(Date.now() + 3600_000).toISOString(),
    });
    const session = await open(token);
    expect((await guest(session, 'GET', '/api/guest/items')).status).toBe(200);
    await sql`UPDATE guest_links SET expires_at = now() - interval '1 second' WHERE id = ${id}`.execute(
      core.db,
    );
    const ended = await guest(session, 'GET', '/api/guest/items');
    expect(ended.status).toBe(403);
    expect(ended.body.detail).toMatch(/expired/);
    expect((await guest(null, 'POST', '/api/guest/open', { token, name: 'Late' })).status).toBe(403);
  });

  it('ask for their password once, and refuse guessing after 5 wrong ones in 15 minutes', async () => {
    const { id, token } = await link({ versionId: v[1], password: 'open sesame' });
    expect((await guest(null, 'POST', '/api/guest/link', { token })).body).toEqual({
      needsPassword: true,
      label: null,
      expiresAt: null,
    });
    const attempt = (password?: string) =>
      guest(null, 'POST', '/api/guest/open', { token, name: 'Mallory', password });
    expect((await attempt()).status).toBe(401);
    for (let i = 0; i < 4; i++) expect((await attempt('wrong')).status).toBe(401);
    const throttled = await attempt('open sesame');
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(800);
    // Once the window has passed, the right password opens it.
    await sql`UPDATE guest_link_log SET at = at - interval '16 minutes' WHERE link_id = ${id}`.execute(
      core.db,
    );
    const opened = await attempt('open sesame');
    expect(opened.status).toBe(200);
    expect((await guest(opened.body.session, 'GET', '/api/guest/items')).status).toBe(200);
    expect(await logOf(id)).toEqual([...Array(5).fill('password-refused'), 'open']);
  });

  it('end open streams within a second of being revoked, and every session and token with them', async () => {
    const { id, token } = await link({ versionId: v[4] });
    const session = await open(token);
    const live = await fetch(`${base}/api/guest/live`, { headers: { 'x-guest-session': session } });
    expect(live.status).toBe(200);
    const stream = await fetch(`${base}/api/guest/files/${reviewable[4]!.fileId}?session=${session}`);
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    let received = 0;
    // Read a little, slowly: most of the 48 MB is still to come.
    for (let i = 0; i < 3; i++) {
      received += (await reader.read()).value?.length ?? 0;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const revokedAt = Date.now();
    const ended = (async () => {
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return 'done';
          received += value.length;
        }
      } catch {
        return 'cut';
      }
    })();
    const liveText = live.text();
    expect((await as(boss)('DELETE', `${P}/guest-links/${id}`)).status).toBe(204);
    const how = await ended;
    const delay = Date.now() - revokedAt;
    expect(how).toBe('cut');
    expect(received).toBeLessThan(48 << 20);
    expect(delay).toBeLessThan(1000);
    if (process.env.GUEST_LINKS_REPORT) console.log(`stream cut ${delay} ms after the revoke was sent`);
    expect(await liveText).toMatch(/event: ended\ndata: .*revoked/);
    const refused = await guest(session, 'GET', '/api/guest/items');
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/revoked/);
    expect((await guest(null, 'POST', '/api/guest/open', { token, name: 'Again' })).status).toBe(403);
    const listed = (await as(boss)('GET', `${P}/guest-links?versionId=${v[4]}`)).body.links[0];
    expect(listed).toMatchObject({ id, active: false, revokedBy: 'boss' });
    expect(await logOf(id)).toEqual(['open', 'revoke']);
  });

  it('end their connections in this process when any process announces the revocation', async () => {
    const { id, token } = await link({ versionId: v[1] });
    const live = await fetch(`${base}/api/guest/live`, { headers: { 'x-guest-session': await open(token) } });
    const text = live.text();
    // As another server process's revocation arrives, through Redis, to this one.
    await core.events.emit({
      topic: 'guest-link.revoked',
      project: 'show',
      summary: { linkId: id },
      store: false,
    });
    expect(await text).toMatch(/event: open[^]*event: ended/);
  });
});
