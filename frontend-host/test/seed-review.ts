import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { expect } from '@jest/globals';
import type { TestCore } from '@pipewright/core/testing';

// What a review test starts from, made through the API: a project with a shot, a product and a version holding one
// clip as its reviewable, and (when asked) a review-session list of that version and more people to take part.

export interface SeededReview {
  version: string;
  reviewable: string;
  /** The reviewable's annotations route. */
  annotations: string;
  /** The review-session list of the version, when asked for. */
  list?: string;
}

export async function seedReview(
  core: TestCore,
  token: string,
  {
    clip,
    first = 1001,
    list = false,
    people = [],
  }: {
    /** The clip's file, uploaded as the version's reviewable. */
    clip: string;
    /** The shot's first frame. */
    first?: number;
    list?: boolean;
    /** Managers to add beside the administrator. */
    people?: { name: string; password: string }[];
  },
): Promise<SeededReview> {
  const call = (method: string, path: string, body?: unknown) => core.request(method, path, { token, body });
  for (const { name, password } of people)
    expect((await call('PUT', `/api/users/${name}`, { password, data: { isManager: true } })).status).toBe(
      204,
    );
  expect((await call('POST', '/api/projects', { name: 'demo', code: 'dm' })).status).toBe(201);
  const create = async (plural: string, body: unknown) => {
    const res = await call('POST', `/api/projects/demo/${plural}`, body);
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const shot = await create('folders', { name: 'sh010', folderType: 'Shot', attrib: { frameStart: first } });
  const product = await create('products', { name: 'comp', productType: 'render', folderId: shot });
  const version = await create('versions', { version: 1, productId: product });
  const upload = await core.request('POST', `/api/projects/demo/versions/${version}/reviewables`, {
    token,
    body: await readFile(clip),
    headers: { 'content-type': 'video/mp4', 'x-file-name': basename(clip) },
  });
  expect(upload.status).toBeLessThan(300);
  const reviewable = upload.body.activityId as string;
  const annotations = `/api/projects/demo/versions/${version}/reviewables/${reviewable}/annotations`;
  if (!list) return { version, reviewable, annotations };
  const listId = await create('lists', {
    label: 'Dailies',
    entityListType: 'review-session',
    entityType: 'version',
    access: { __everyone__: 20 },
    items: [{ entityId: version }],
  });
  return { version, reviewable, annotations, list: listId };
}
