import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sql } from 'kysely';
import { P, buildWorld, filesUnder, imageSize, makeMedia, type Media, type World } from './world.js';

let w: World;
let media: Media;

beforeAll(async () => {
  [w, media] = await Promise.all([buildWorld(), makeMedia()]);
});
afterAll(() => w?.core.close());

/** A new version of modelMain, for a test that needs one without reviewables or a thumbnail. */
let nextVersion = 10;
async function freshVersion(): Promise<string> {
  const res = await w.as('root', 'POST', `${P}/versions`, {
    version: nextVersion++,
    productId: w.ids.modelMain,
    taskId: w.ids.modeling,
  });
  expect(res.status).toBe(201);
  return res.body.id;
}

const version = async (id: string) => (await w.as('root', 'GET', `${P}/versions/${id}`)).body;

/** What is stored of uploads: file records and files on disk. */
async function stored() {
  return { records: (await w.rows('files')).length, onDisk: (await filesUnder(w.uploadsDir())).length };
}

describe('POST /versions/{id}/reviewables', () => {
  it('stores an H.264 MP4 as a ready reviewable with its media info', async () => {
    const id = await freshVersion();
    const res = await w.upload('artie', id, media.mp4, { label: 'Main take' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      fileId: expect.stringMatching(/^[0-9a-f]{32}$/),
      activityId: expect.stringMatching(/^[0-9a-f]{32}$/),
      filename: 'clip.mp4',
      label: 'Main take',
      mimetype: 'video/mp4',
      availability: 'ready',
      mediaInfo: expect.objectContaining({
        codec: 'h264',
        width: 320,
        height: 240,
        frameRate: 24,
        duration: 1,
        frameCount: 24,
        pixelFormat: 'yuv420p',
        majorBrand: 'isom',
        videoTrackIndex: 0,
      }),
      createdFrom: null,
      processing: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      author: { name: 'artie', fullName: 'Artie Person' },
    });
    // The file is the files addon's, attached to the reviewable activity.
    const info = await w.as('artie', 'GET', `${P}/files/${res.body.fileId}/info`);
    expect(info.body).toMatchObject({
      filename: 'clip.mp4',
      activityId: res.body.activityId,
      author: 'artie',
    });
  });

  it('describes what browsers cannot play as it is', async () => {
    const cases: [Buffer, string, string, string, string][] = [
      [media.mov, 'video/quicktime', 'clip.mov', 'prores', 'conversionRequired'],
      [media.avi, 'video/x-msvideo', 'clip.avi', 'mpeg4', 'conversionRequired'],
      [media.yuv444, 'video/mp4', 'clip444.mp4', 'h264', 'conversionRecommended'],
      [media.png, 'image/png', 'still.png', 'png', 'ready'],
    ];
    const id = await freshVersion();
    for (const [bytes, type, name, codec, availability] of cases) {
      const res = await w.upload('artie', id, bytes, {
        headers: { 'content-type': type, 'x-file-name': name },
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ filename: name, mimetype: type, availability, processing: null });
      expect(res.body.mediaInfo.codec).toBe(codec);
    }
    const listed = await w.as('artie', 'GET', `${P}/versions/${id}/reviewables`);
    expect(listed.body.reviewables.map((r: any) => [r.filename, r.availability])).toEqual(
      cases.map(([, , name, , availability]) => [name, availability]),
    );
    const png = listed.body.reviewables[3];
    expect(png.mediaInfo).toMatchObject({ width: 800, height: 600, duration: 0, frameCount: 1 });
    expect(listed.body.reviewables[0].mediaInfo.majorBrand).toBe('qt  ');
  });

  it('makes a reviewable activity on the version, the uploader a watcher, and announces it', async () => {
    const id = await freshVersion();
    const res = await w.upload('bea', id, media.mp4, { label: 'Anim pass' });
    expect(res.status).toBe(200);
    const activity = (await w.rows('activities')).find((row) => row.id === res.body.activityId)!;
    expect(activity).toMatchObject({
      activity_type: 'reviewable',
      body: "Uploaded a reviewable 'Anim pass'",
    });
    expect(activity.data).toMatchObject({
      author: 'bea',
      reviewableLabel: 'Anim pass',
      reviewableOrder: 0,
      origin: { type: 'version', id },
      files: [{ id: res.body.fileId, filename: 'clip.mp4', mime: 'video/mp4' }],
    });
    expect((await w.as('bea', 'GET', `${P}/versions/${id}/watchers`)).body.watchers).toContain('bea');
    const events = await w.core.db
      .selectFrom('events')
      .selectAll()
      .where('topic', '=', 'reviewable.created')
      .execute();
    const event = events.find((e: any) => e.summary.activityId === res.body.activityId) as any;
    expect(event).toMatchObject({
      project_name: 'demo',
      user_name: 'bea',
      summary: {
        fileId: res.body.fileId,
        versionId: id,
        productId: w.ids.modelMain,
        filename: 'clip.mp4',
        label: 'Anim pass',
        mimetype: 'video/mp4',
        size: media.mp4.length,
      },
    });
    // Without a label, the activity names the file.
    const unlabelled = await w.upload('bea', id, media.png, {
      headers: { 'content-type': 'image/png', 'x-file-name': 'still.png' },
    });
    expect(unlabelled.body.label).toBeNull();
    expect((await w.rows('activities')).find((row) => row.id === unlabelled.body.activityId)!.body).toBe(
      "Uploaded a reviewable 'still.png'",
    );
  });

  it('lets a service upload without making it a watcher', async () => {
    const id = await freshVersion();
    const res = await w.upload('farm', id, media.mp4);
    expect(res.status).toBe(200);
    expect(res.body.author.name).toBe('farm');
    expect((await w.as('root', 'GET', `${P}/versions/${id}/watchers`)).body.watchers).not.toContain('farm');
  });

  it('gives a version without a thumbnail the first frame of a video, and keeps it afterwards', async () => {
    const id = await freshVersion();
    expect(await version(id)).not.toHaveProperty('thumbnailId');
    expect((await w.upload('artie', id, media.mp4)).status).toBe(200);
    const thumbnailId = (await version(id)).thumbnailId;
    expect(thumbnailId).toMatch(/^[0-9a-f]{32}$/);
    const image = await w.raw('artie', `${P}/versions/${id}/thumbnail`);
    expect(image.status).toBe(200);
    expect(image.headers['content-type']).toBe('image/jpeg');
    expect(await imageSize(image.bytes)).toEqual({ width: 320, height: 240, codec: 'mjpeg' });
    // A second reviewable leaves the thumbnail alone.
    const png = { headers: { 'content-type': 'image/png', 'x-file-name': 'still.png' } };
    expect((await w.upload('artie', id, media.png, png)).status).toBe(200);
    expect((await version(id)).thumbnailId).toBe(thumbnailId);
  });

  it('gives a version the uploaded image, scaled to 500 px, and leaves a thumbnail set before', async () => {
    const id = await freshVersion();
    const png = { headers: { 'content-type': 'image/png', 'x-file-name': 'still.png' } };
    expect((await w.upload('artie', id, media.png, png)).status).toBe(200);
    const image = await w.raw('artie', `${P}/versions/${id}/thumbnail`);
    expect(await imageSize(image.bytes)).toEqual({ width: 500, height: 375, codec: 'mjpeg' });

    const own = await freshVersion();
    const set = await w.core.request('POST', `${P}/versions/${own}/thumbnail`, {
      token: w.tokens.root,
      body: media.png,
      headers: { 'content-type': 'image/png' },
    });
    expect(set.status).toBe(201);
    expect((await w.upload('artie', own, media.mp4)).status).toBe(200);
    expect((await version(own)).thumbnailId).toBe(set.body.id);
  });

  it('refuses what is not a video or an image with 415, before storing anything', async () => {
    const id = await freshVersion();
    const before = await stored();
    const res = await w.upload('artie', id, 'just text', {
      headers: { 'content-type': 'text/plain', 'x-file-name': 'notes.txt' },
    });
    expect(res.status).toBe(415);
    expect(res.body.detail).toMatch(/video/);
    const pdf = await w.upload('artie', id, media.png, {
      headers: { 'content-type': 'application/pdf', 'x-file-name': 'x.pdf' },
    });
    expect(pdf.status).toBe(415);
    expect(await stored()).toEqual(before);
  });

  it('refuses bytes ffprobe cannot read (400) and leaves no file behind', async () => {
    const id = await freshVersion();
    const before = await stored();
    const res = await w.upload('artie', id, Buffer.alloc(4096, 7));
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/could not be read/);
    // MXF is accepted as a type (it is a video container), and its content is checked the same way.
    const mxf = await w.upload('artie', id, 'not really mxf', {
      headers: { 'content-type': 'application/mxf', 'x-file-name': 'clip.mxf' },
    });
    expect(mxf.status).toBe(400);
    expect(await stored()).toEqual(before);
    expect((await w.as('artie', 'GET', `${P}/versions/${id}/reviewables`)).body.reviewables).toEqual([]);
  });

  it('writes nothing and removes the file when the transaction fails', async () => {
    const id = await freshVersion();
    const before = await stored();
    // Only this area's activities: the activities addon records the new version's publish on its own schedule.
    const ours = async () =>
      (await w.rows('activities')).filter((row) => ['reviewable', 'watch'].includes(row.activity_type))
        .length;
    const activitiesBefore = await ours();
    // The watch activity is written last in the transaction, after the reviewable, its references and the file's
    // attachment: refusing it proves all of those roll back together.
    await sql`
      CREATE FUNCTION project_demo.refuse_watch() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.activity_type = 'watch' THEN RAISE EXCEPTION 'refused by the test'; END IF;
        RETURN NEW;
      END $$`.execute(w.core.db);
    await sql`
      CREATE TRIGGER refuse_watch BEFORE INSERT ON project_demo.activities
      FOR EACH ROW EXECUTE FUNCTION project_demo.refuse_watch()`.execute(w.core.db);
    try {
      const res = await w.upload('artie', id, media.mp4);
      expect(res.status).toBe(500);
    } finally {
      await sql`DROP TRIGGER refuse_watch ON project_demo.activities`.execute(w.core.db);
      await sql`DROP FUNCTION project_demo.refuse_watch()`.execute(w.core.db);
    }
    expect(await stored()).toEqual(before);
    expect(await ours()).toBe(activitiesBefore);
    expect(await version(id)).not.toHaveProperty('thumbnailId');
    expect((await w.as('artie', 'GET', `${P}/versions/${id}/watchers`)).body.watchers).toEqual([]);
    // The same upload goes through once nothing refuses it.
    expect((await w.upload('artie', id, media.mp4)).status).toBe(200);
  });

  it('needs the headers, and takes a label of any length (as AYON does on upload)', async () => {
    const id = await freshVersion();
    const noName = await w.core.request('POST', `${P}/versions/${id}/reviewables`, {
      token: w.tokens.artie,
      body: media.mp4,
      headers: { 'content-type': 'video/mp4' },
    });
    expect(noName.status).toBe(422);
    expect(JSON.stringify(noName.body.errors)).toMatch(/x-file-name/);
    const long = await w.upload('artie', id, media.mp4, { label: 'x'.repeat(1000) });
    expect(long.status).toBe(200);
    expect(long.body.label).toBe('x'.repeat(1000));
    const badId = await w.upload('artie', 'not-an-id', media.mp4);
    expect(badId.status).toBe(422);
  });

  describe('who may upload', () => {
    it('anyone who may publish to the version: artists, managers, a freelancer where assigned', async () => {
      const id = await freshVersion();
      for (const person of ['root', 'boss', 'artie', 'bea', 'fran'] as const)
        expect((await w.upload(person, id, media.mp4)).status).toBe(200);
    });

    it('nobody else, and nothing is stored for them', async () => {
      const id = await freshVersion();
      const before = await stored();
      expect((await w.upload(undefined, id, media.mp4)).status).toBe(401);
      // Project access, then read access (hidden: 404), then publish rights.
      expect((await w.upload('olga', id, media.mp4)).status).toBe(403);
      expect((await w.upload('fran', w.ids.anim1, media.mp4)).status).toBe(404);
      expect((await w.upload('vic', id, media.mp4)).status).toBe(403);
      expect((await w.upload('gus', id, media.mp4)).status).toBe(403);
      expect(
        (
          await w.upload('artie', 'ab'.repeat(16), media.mp4, {
            headers: { 'content-type': 'video/mp4', 'x-file-name': 'clip.mp4' },
          })
        ).status,
      ).toBe(404);
      const nowhere = await w.core.request('POST', `/api/projects/nowhere/versions/${id}/reviewables`, {
        token: w.tokens.root,
        body: media.mp4,
        headers: { 'content-type': 'video/mp4', 'x-file-name': 'clip.mp4' },
      });
      expect(nowhere.status).toBe(404);
      expect(await stored()).toEqual(before);
      expect((await w.as('root', 'GET', `${P}/versions/${id}/reviewables`)).body.reviewables).toEqual([]);
    });
  });
});
