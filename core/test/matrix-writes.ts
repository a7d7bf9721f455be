// Valid requests for the write routes of the permission matrix (permission-matrix.test.ts): for each route, what a
// given caller sends so that, when the caller is admitted, the route succeeds with its documented status. Each
// scenario prepares what it needs as the administrator first (a user to delete, a link of the caller's own, ...),
// so that every admitted caller meets a fresh target.

import { newId } from '@pipewright/sdk';
import type { TestCore } from '../src/testing.js';

export type Caller = 'anonymous' | 'outsider' | 'freelancer' | 'artist' | 'supervisor' | 'manager' | 'admin';

export interface WriteRequest {
  /** Path parameters by name (the rest are filled as for any probe). */
  path?: Record<string, string>;
  body?: unknown;
  headers?: Record<string, string>;
  /** The success status, for a route that documents several (else its lowest documented 2xx). */
  status?: number;
}

/** What the scenarios share: the core, the callers' tokens and the fixtures made for the reads. */
export interface MatrixContext {
  core: TestCore;
  tokens: Partial<Record<Caller, string>>;
  fixtures: Record<string, string>;
}

export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const png = { body: PNG, headers: { 'content-type': 'image/png' } };
/** A project file upload: the bytes and the headers naming them. */
export const pngFile = (name: string) => ({
  body: PNG,
  headers: { 'content-type': 'image/png', 'x-file-name': name },
});

type Scenario = (caller: Caller, ctx: MatrixContext) => Promise<WriteRequest> | WriteRequest;

/** As the administrator: create something and answer its id (or the whole answer). */
async function asAdmin(
  ctx: MatrixContext,
  method: string,
  url: string,
  body?: unknown,
  headers?: Record<string, string>,
) {
  const res = await ctx.core.request(method, url, { token: ctx.tokens.admin, body, headers });
  if (res.status >= 300) throw new Error(`setup ${method} ${url}: ${res.status} ${res.text}`);
  return res.body;
}

const P = '/api/projects/demo';
let counter = 0;
/** A name no earlier probe used. */
const fresh = (prefix: string) => `${prefix}_${++counter}`;

const probeWebhook = () => ({
  name: fresh('hook'),
  url: 'https://hooks.example.invalid/probe',
  projectName: 'demo',
  topics: ['entity.*'],
});
const newWebhook = async (ctx: MatrixContext) =>
  (await asAdmin(ctx, 'POST', '/api/webhooks', probeWebhook())).id;

/** A folder holding a task assigned to the artist and the freelancer: all default groups may act in it. */
async function assignedFolder(ctx: MatrixContext): Promise<string> {
  const folder = (
    await asAdmin(ctx, 'POST', `${P}/folders`, {
      name: fresh('f'),
      folderType: 'Folder',
      parentId: ctx.fixtures.folder_id,
    })
  ).id;
  await asAdmin(ctx, 'POST', `${P}/tasks`, {
    name: 'work',
    folderId: folder,
    assignees: ['artist', 'freelancer'],
  });
  return folder;
}

/** An anatomy preset made from the built-in one. */
async function newPreset(ctx: MatrixContext): Promise<string> {
  const name = fresh('preset');
  await asAdmin(
    ctx,
    'PUT',
    `/api/anatomy/presets/${name}`,
    await asAdmin(ctx, 'GET', '/api/anatomy/presets/_'),
  );
  return name;
}

/** A team of the demo project, with these members. */
async function newTeam(ctx: MatrixContext, members: { name: string }[] = []): Promise<string> {
  const name = fresh('crew');
  await asAdmin(ctx, 'PUT', `${P}/teams/${name}`, { name, members });
  return name;
}

/** Both verbs of the rename route: a user made for it, and a new name. */
const renameUser: Scenario = async (_c, ctx) => {
  const name = fresh('old');
  await asAdmin(ctx, 'PUT', `/api/users/${name}`, {});
  return { path: { user_name: name }, body: { newName: fresh('new') } };
};

/** An installer or dependency package registered (not uploaded) under a fresh filename. */
async function registered(ctx: MatrixContext, kind: 'installers' | 'dependencyPackages'): Promise<string> {
  const filename = `${fresh(kind)}.zip`;
  await asAdmin(ctx, 'POST', `/api/desktop/${kind}`, desktopRecord(kind, filename));
  return filename;
}

// One installer per launcher version and platform: each probe registers a version of its own.
function desktopRecord(kind: 'installers' | 'dependencyPackages', filename: string) {
  return kind === 'installers'
    ? { filename, version: `2.0.${++counter}`, platform: 'windows' }
    : { filename, installerVersion: '1.0.0', platform: 'linux' };
}

function desktopWrites(kind: 'installers' | 'dependencyPackages'): Record<string, Scenario> {
  const base = `/api/desktop/${kind}`;
  return {
    [`POST ${base}`]: () => ({ body: desktopRecord(kind, `${fresh(kind)}.zip`) }),
    [`PUT ${base}/{filename}`]: async (_c, ctx) => ({
      path: { filename: await registered(ctx, kind) },
      body: Buffer.from('launcher bytes'),
      headers: { 'content-type': 'application/octet-stream' },
    }),
    [`PATCH ${base}/{filename}`]: async (_c, ctx) => ({
      path: { filename: await registered(ctx, kind) },
      body: { sources: [{ type: 'http', url: 'https://downloads.example.com/launcher.zip' }] },
    }),
    [`DELETE ${base}/{filename}`]: async (_c, ctx) => ({ path: { filename: await registered(ctx, kind) } }),
  };
}

/** A bundle made by the administrator under a fresh name (staging when asked). */
async function newBundle(ctx: MatrixContext, extra: Record<string, unknown> = {}): Promise<string> {
  const name = fresh('matrix_bundle');
  await asAdmin(ctx, 'POST', '/api/bundles', { name, ...extra });
  return name;
}

/** A folder list the administrator made and shared with everyone at this level (10 read, 20 items, 30 all). */
async function sharedList(
  ctx: MatrixContext,
  level: number,
  extra: Record<string, unknown> = {},
): Promise<string> {
  return (
    await asAdmin(ctx, 'POST', `${P}/lists`, {
      entityType: 'folder',
      label: fresh('list'),
      access: { __everyone__: level },
      ...extra,
    })
  ).id;
}

/** A list at level 20 holding the probe folder, and the id of that item. */
async function listWithItem(ctx: MatrixContext): Promise<Record<string, string>> {
  const list = await sharedList(ctx, 20, { items: [{ entityId: ctx.fixtures.folder_id }] });
  const item = (await asAdmin(ctx, 'GET', `${P}/lists/${list}`)).items[0].id;
  return { entity_list_id: list, entity_list_item_id: item };
}

/** Made with the caller's own token where the caller may, else by the administrator. */
async function asCallerOrAdmin(
  ctx: MatrixContext,
  caller: Caller,
  url: string,
  body: unknown,
): Promise<string> {
  const own = await ctx.core.request('POST', url, { token: ctx.tokens[caller], body });
  return own.status < 300 ? own.body.id : (await asAdmin(ctx, 'POST', url, body)).id;
}

const overview = { view_type: 'overview' };

/** A fresh version holding a reviewable the caller uploaded where the caller may, else the administrator's. */
async function ownReviewable(caller: Caller, ctx: MatrixContext) {
  const version = (
    await asAdmin(ctx, 'POST', `${P}/versions`, {
      version: 100 + ++counter,
      productId: ctx.fixtures.product_id,
    })
  ).id;
  const url = `${P}/versions/${version}/reviewables`;
  const upload = pngFile('probe.png');
  const own = await ctx.core.request('POST', url, { token: ctx.tokens[caller], ...upload });
  const activityId =
    own.status === 200
      ? own.body.activityId
      : (await asAdmin(ctx, 'POST', url, upload.body, upload.headers)).activityId;
  return { version, activityId: activityId as string };
}

const annotationPath = (ctx: MatrixContext) => ({
  version_id: ctx.fixtures.version_id!,
  activity_id: ctx.fixtures.reviewable!,
});
const probeAnnotation = { frame: 1, color: '#ff0000', shape: { kind: 'stroke', points: [[0, 0, 0.01]] } };

/** An annotation on the probe reviewable drawn by the caller where the caller may, else by the administrator. */
async function ownAnnotation(caller: Caller, ctx: MatrixContext) {
  const { version_id, activity_id } = annotationPath(ctx);
  const url = `${P}/versions/${version_id}/reviewables/${activity_id}/annotations`;
  return { ...annotationPath(ctx), annotation_id: await asCallerOrAdmin(ctx, caller, url, probeAnnotation) };
}

/** A fresh list of the probe version that everyone on the project may read. */
const versionList = (ctx: MatrixContext) =>
  sharedList(ctx, 10, { entityType: 'version', items: [{ entityId: ctx.fixtures.version_id }] });

/** A review session on a fresh list, joined first (so driven) by the caller where the caller may join. */
async function sessionJoined(caller: Caller, ctx: MatrixContext) {
  const list_id = await versionList(ctx);
  const url = `${P}/lists/${list_id}/session`;
  const own = await ctx.core.request('POST', url, { token: ctx.tokens[caller], body: { command: 'join' } });
  if (own.status >= 300) await asAdmin(ctx, 'POST', url, { command: 'join' });
  return { list_id };
}

/** A comment on the probe task by the caller where the caller may comment, else by the administrator. */
async function ownComment(caller: Caller, ctx: MatrixContext): Promise<string> {
  return asCallerOrAdmin(ctx, caller, `${P}/tasks/${ctx.fixtures.task_id}/activities`, {
    activityType: 'comment',
    body: 'probe',
  });
}

/** A list of the probe version that every project user reads and only managers change. */
async function readOnlyVersionList(ctx: MatrixContext): Promise<string> {
  return (
    await asAdmin(ctx, 'POST', `${P}/lists`, {
      entityType: 'version',
      label: fresh('guest_list'),
      access: { __everyone__: 10 },
      items: [{ entityId: ctx.fixtures.version_id }],
    })
  ).id;
}

/** A guest link the administrator made to such a list: its id and token. */
async function guestLink(ctx: MatrixContext): Promise<{ id: string; token: string }> {
  return asAdmin(ctx, 'POST', `${P}/guest-links`, { listId: await readOnlyVersionList(ctx) });
}

export const WRITES: Record<string, Scenario> = {
  // Guest links to a fresh list of the probe version that everyone reads and only managers change.
  'POST /api/projects/{project_name}/guest-links': async (_c, ctx) => ({
    body: { listId: await readOnlyVersionList(ctx) },
  }),
  'DELETE /api/projects/{project_name}/guest-links/{guest_link_id}': async (_c, ctx) => ({
    path: { guest_link_id: (await guestLink(ctx)).id },
  }),
  'GET /api/projects/{project_name}/guest-links/{guest_link_id}/log': async (_c, ctx) => ({
    path: { guest_link_id: (await guestLink(ctx)).id },
  }),
  'POST /api/guest/link': async (_c, ctx) => ({ body: { token: (await guestLink(ctx)).token }, status: 200 }),
  'POST /api/guest/open': async (_c, ctx) => ({
    body: { token: (await guestLink(ctx)).token, name: 'Probe Guest' },
    status: 200,
  }),
  'POST /api/addons/{addon_name}/{addon_version}/settings': () => ({ body: {} }),
  'POST /api/addons/{addon_name}/{addon_version}/overrides': () => ({
    body: { action: 'delete', path: ['x'] },
  }),
  'DELETE /api/addons/{addon_name}/{addon_version}/overrides': () => ({}),
  'PUT /api/addons/{addon_name}/{addon_version}/rawOverrides': () => ({ body: {} }),
  'POST /api/addons/{addon_name}/{addon_version}/settings/{project_name}': () => ({ body: {} }),
  'POST /api/addons/{addon_name}/{addon_version}/overrides/{project_name}': () => ({
    body: { action: 'delete', path: ['x'] },
  }),
  'DELETE /api/addons/{addon_name}/{addon_version}/overrides/{project_name}': () => ({}),
  'PUT /api/addons/{addon_name}/{addon_version}/rawOverrides/{project_name}': () => ({ body: {} }),
  'PUT /api/addons/{addon_name}/{addon_version}/siteSettings': () => ({
    body: {},
    headers: { 'x-ayon-site-id': 'probe-workstation' },
  }),
  // Without copyVariant there is nothing to copy.
  'POST /api/addons': () => ({ body: {} }),
  'POST /api/migrateSettingsByBundle': async (_c, ctx) => {
    const addons = { 'settings-probe': '1.0.0' };
    return {
      body: {
        sourceBundle: await newBundle(ctx, { addons }),
        targetBundle: await newBundle(ctx, { addons }),
        sourceVariant: 'production',
        targetVariant: 'staging',
      },
    };
  },
  'POST /api/projects/{project_name}/files': () => pngFile('probe.png'),
  // The reviewable is answered with 200, as AYON does.
  'POST /api/projects/{project_name}/versions/{version_id}/reviewables': (_c, ctx) => ({
    path: { version_id: ctx.fixtures.version_id },
    ...pngFile('probe.png'),
    status: 200,
  }),
  'PATCH /api/projects/{project_name}/versions/{version_id}/reviewables': async (caller, ctx) => {
    const { version, activityId } = await ownReviewable(caller, ctx);
    return { path: { version_id: version }, body: { sort: [activityId] } };
  },
  'PATCH /api/projects/{project_name}/versions/{version_id}/reviewables/{activity_id}': async (
    caller,
    ctx,
  ) => {
    const { version, activityId } = await ownReviewable(caller, ctx);
    return { path: { version_id: version, activity_id: activityId }, body: { label: 'probe' } };
  },
  // Annotations of the probe reviewable: read and drawn by whoever reads the version, changed by their author.
  'GET /api/projects/{project_name}/versions/{version_id}/reviewables/{activity_id}/annotations': (
    _c,
    ctx,
  ) => ({
    path: annotationPath(ctx),
  }),
  'POST /api/projects/{project_name}/versions/{version_id}/reviewables/{activity_id}/annotations': (
    _c,
    ctx,
  ) => ({
    path: annotationPath(ctx),
    body: probeAnnotation,
  }),
  'PATCH /api/projects/{project_name}/versions/{version_id}/reviewables/{activity_id}/annotations/{annotation_id}':
    async (caller, ctx) => ({ path: await ownAnnotation(caller, ctx), body: { color: '#00ff00' } }),
  'DELETE /api/projects/{project_name}/versions/{version_id}/reviewables/{activity_id}/annotations/{annotation_id}':
    async (caller, ctx) => ({ path: await ownAnnotation(caller, ctx) }),
  'GET /api/projects/{project_name}/versions/{version_id}/reviewables/{activity_id}/annotations/otio': (
    _c,
    ctx,
  ) => ({ path: annotationPath(ctx) }),
  'POST /api/projects/{project_name}/versions/{version_id}/reviewables/{activity_id}/annotations/otio': (
    _c,
    ctx,
  ) => ({
    path: annotationPath(ctx),
    body: { OTIO_SCHEMA: 'Annotation.1', layers: [] },
  }),
  'GET /api/projects/{project_name}/versions/{version_id}/reviewables/{activity_id}/annotations/openrv': (
    _c,
    ctx,
  ) => ({ path: annotationPath(ctx) }),
  'POST /api/projects/{project_name}/versions/{version_id}/reviewables/{activity_id}/annotations/openrv': (
    _c,
    ctx,
  ) => ({
    path: annotationPath(ctx),
    body: 'GTOa (4)\n\nsourceGroup000000_paint : RVPaint (3)\n{\n}\n',
    headers: { 'content-type': 'text/plain' },
  }),
  'POST /api/projects/{project_name}/versions/{version_id}/reviewables/{activity_id}/annotations/live': (
    _c,
    ctx,
  ) => ({ path: annotationPath(ctx), body: { ...probeAnnotation, id: 'd'.repeat(32) } }),
  'GET /api/projects/{project_name}/lists/{list_id}/session': async (caller, ctx) => ({
    path: await sessionJoined(caller, ctx),
  }),
  'POST /api/projects/{project_name}/lists/{list_id}/session': async (caller, ctx) => ({
    path: await sessionJoined(caller, ctx),
    body: { command: 'seek', frame: 1001 },
  }),
  'GET /api/projects/{project_name}/lists/{list_id}/review-report': async (_c, ctx) => ({
    path: { list_id: await versionList(ctx) },
  }),
  'GET /api/projects/{project_name}/versions/{version_id}/review-report': (_c, ctx) => ({
    path: { version_id: ctx.fixtures.version_id },
  }),
  'POST /api/projects/{project_name}/{entity_type}/{entity_id}/activities': (_c, ctx) => ({
    path: { entity_type: 'tasks', entity_id: ctx.fixtures.task_id },
    body: { activityType: 'comment', body: 'probe' },
  }),
  'PATCH /api/projects/{project_name}/activities/{activity_id}': async (caller, ctx) => ({
    path: { activity_id: await ownComment(caller, ctx) },
    body: { body: 'edited' },
  }),
  'DELETE /api/projects/{project_name}/activities/{activity_id}': async (caller, ctx) => ({
    path: { activity_id: await ownComment(caller, ctx) },
  }),
  'POST /api/projects/{project_name}/activities/{activity_id}/reactions': async (_c, ctx) => ({
    path: { activity_id: await ownComment('admin', ctx) },
    body: { reaction: 'thumb_up' },
  }),
  'DELETE /api/projects/{project_name}/activities/{activity_id}/reactions/{reaction}': async (_c, ctx) => ({
    path: { activity_id: await ownComment('admin', ctx), reaction: 'thumb_up' },
  }),
  'POST /api/projects/{project_name}/{entity_type}/{entity_id}/watchers': (_c, ctx) => ({
    path: { entity_type: 'tasks', entity_id: ctx.fixtures.task_id },
    body: { watchers: ['admin'] },
  }),
  'POST /api/projects/{project_name}/suggest': (_c, ctx) => ({
    body: { entityType: 'task', entityId: ctx.fixtures.task_id },
  }),
  'POST /api/projects/{project_name}/operations/activities': (_c, ctx) => ({
    body: {
      operations: [
        {
          type: 'create',
          data: {
            entityType: 'task',
            entityId: ctx.fixtures.task_id,
            activityType: 'comment',
            body: 'probe',
          },
        },
      ],
    },
  }),
  'POST /api/inbox': () => ({ body: { projectName: 'demo', all: true, status: 'read' } }),
  'DELETE /api/projects/{project_name}/files/{file_id}': async (_c, ctx) => {
    const upload = pngFile('doomed.png');
    return { path: { file_id: (await asAdmin(ctx, 'POST', `${P}/files`, upload.body, upload.headers)).id } };
  },
  'POST /api/projects/{project_name}/lists': () => ({ body: { entityType: 'folder', label: fresh('list') } }),
  'PATCH /api/projects/{project_name}/lists/{entity_list_id}': async (_c, ctx) => ({
    path: { entity_list_id: await sharedList(ctx, 30) },
    body: { label: fresh('renamed') },
  }),
  'DELETE /api/projects/{project_name}/lists/{entity_list_id}': async (_c, ctx) => ({
    path: { entity_list_id: await sharedList(ctx, 30) },
  }),
  'PUT /api/projects/{project_name}/lists/{entity_list_id}/attributes': async (_c, ctx) => ({
    path: { entity_list_id: await sharedList(ctx, 30) },
    body: [{ name: 'reviewNote', data: { type: 'string' } }],
  }),
  'POST /api/projects/{project_name}/lists/{entity_list_id}/materialize': async (_c, ctx) => ({
    path: {
      entity_list_id: await sharedList(ctx, 30, { template: { folderIds: [ctx.fixtures.folder_id] } }),
    },
  }),
  'POST /api/projects/{project_name}/lists/{entity_list_id}/items': async (_c, ctx) => ({
    path: { entity_list_id: await sharedList(ctx, 20) },
    body: { entityId: ctx.fixtures.folder_id },
  }),
  'PATCH /api/projects/{project_name}/lists/{entity_list_id}/items/{entity_list_item_id}': async (
    _c,
    ctx,
  ) => ({
    path: await listWithItem(ctx),
    body: { label: 'x' },
  }),
  'DELETE /api/projects/{project_name}/lists/{entity_list_id}/items/{entity_list_item_id}': async (
    _c,
    ctx,
  ) => ({
    path: await listWithItem(ctx),
  }),
  'PATCH /api/projects/{project_name}/lists/{list_id}/items': async (_c, ctx) => ({
    path: { list_id: await sharedList(ctx, 20) },
    body: { mode: 'merge', items: [{ entityId: ctx.fixtures.folder_id }] },
  }),
  'POST /api/projects/{project_name}/lists/{entity_list_id}/order': async (_c, ctx) => {
    const list = await sharedList(ctx, 20, {
      items: [{ entityId: ctx.fixtures.folder_id }, { entityId: ctx.fixtures.folder_id }],
    });
    const items = (await asAdmin(ctx, 'GET', `${P}/lists/${list}`)).items as { id: string }[];
    return { path: { entity_list_id: list }, body: { order: items.map((item) => item.id).reverse() } };
  },
  'POST /api/projects/{project_name}/entityListFolders': () => ({ body: { label: fresh('lf') } }),
  'POST /api/projects/{project_name}/entityListFolders/order': async (_c, ctx) => ({
    body: { order: [(await asAdmin(ctx, 'POST', `${P}/entityListFolders`, { label: fresh('lf') })).id] },
  }),
  'PATCH /api/projects/{project_name}/entityListFolders/{folder_id}': async (caller, ctx) => ({
    path: { folder_id: await asCallerOrAdmin(ctx, caller, `${P}/entityListFolders`, { label: fresh('lf') }) },
    body: { label: fresh('lf') },
  }),
  'DELETE /api/projects/{project_name}/entityListFolders/{folder_id}': async (caller, ctx) => ({
    path: { folder_id: await asCallerOrAdmin(ctx, caller, `${P}/entityListFolders`, { label: fresh('lf') }) },
  }),
  'POST /api/views/{view_type}': () => ({
    path: overview,
    body: { label: 'probe', working: false, settings: {} },
    // A new view; 200 is for saving over one's working view.
    status: 201,
  }),
  'POST /api/views/{view_type}/default': async (_c, ctx) => ({
    path: overview,
    body: {
      viewId: (
        await asAdmin(ctx, 'POST', '/api/views/overview', {
          label: fresh('view'),
          working: false,
          visibility: 'public',
          settings: {},
        })
      ).id,
    },
  }),
  'PATCH /api/views/{view_type}/{view_id}': async (caller, ctx) => ({
    path: {
      ...overview,
      view_id: await asCallerOrAdmin(ctx, caller, '/api/views/overview', {
        label: fresh('view'),
        working: false,
        settings: {},
      }),
    },
    body: { label: 'renamed' },
  }),
  'DELETE /api/views/{view_type}/{view_id}': async (caller, ctx) => ({
    path: {
      ...overview,
      view_id: await asCallerOrAdmin(ctx, caller, '/api/views/overview', {
        label: fresh('view'),
        working: false,
        settings: {},
      }),
    },
  }),
  'POST /api/bundles': () => ({ body: { name: fresh('matrix_bundle') } }),
  'POST /api/bundles/check': () => ({ body: { name: fresh('matrix_check') } }),
  'POST /api/bundles/{bundle_name}': async (_c, ctx) => ({
    path: { bundle_name: await newBundle(ctx, { isStaging: true }) },
    body: { action: 'promote' },
  }),
  'PATCH /api/bundles/{bundle_name}': async (_c, ctx) => ({
    path: { bundle_name: await newBundle(ctx) },
    body: { isArchived: true },
  }),
  'DELETE /api/bundles/{bundle_name}': async (_c, ctx) => ({ path: { bundle_name: await newBundle(ctx) } }),
  'POST /api/projects/{project_name}/bundles': () => ({ body: { production: '__project__demo' } }),
  // The key is stored even though the cloud cannot be reached to confirm it.
  'POST /api/connect': () => ({ body: { key: 'a-studio-cloud-key' } }),
  'DELETE /api/connect': () => ({}),
  ...desktopWrites('installers'),
  ...desktopWrites('dependencyPackages'),
  // Entities, in the folder whose task the artist and the freelancer hold.
  'POST /api/projects/{project_name}/folders': () => ({ body: { name: fresh('top'), folderType: 'Folder' } }),
  'PATCH /api/projects/{project_name}/folders/{folder_id}': (_c, ctx) => ({
    path: { folder_id: ctx.fixtures.folder_id },
    body: { label: fresh('Label') },
  }),
  'DELETE /api/projects/{project_name}/folders/{folder_id}': async (_c, ctx) => ({
    path: { folder_id: await assignedFolder(ctx) },
  }),
  'POST /api/projects/{project_name}/tasks': (_c, ctx) => ({
    body: { name: fresh('t'), folderId: ctx.fixtures.folder_id },
  }),
  'PATCH /api/projects/{project_name}/tasks/{task_id}': (_c, ctx) => ({
    path: { task_id: ctx.fixtures.task_id },
    body: { label: fresh('Task') },
  }),
  'DELETE /api/projects/{project_name}/tasks/{task_id}': async (_c, ctx) => ({
    path: {
      task_id: (
        await asAdmin(ctx, 'POST', `${P}/tasks`, { name: fresh('t'), folderId: ctx.fixtures.folder_id })
      ).id,
    },
  }),
  'POST /api/projects/{project_name}/products': (_c, ctx) => ({
    body: { name: fresh('p'), productType: 'model', folderId: ctx.fixtures.folder_id },
  }),
  'PATCH /api/projects/{project_name}/products/{product_id}': (_c, ctx) => ({
    path: { product_id: ctx.fixtures.product_id },
    body: { tags: [fresh('tag')] },
  }),
  'DELETE /api/projects/{project_name}/products/{product_id}': async (_c, ctx) => ({
    path: {
      product_id: (
        await asAdmin(ctx, 'POST', `${P}/products`, {
          name: fresh('p'),
          productType: 'model',
          folderId: ctx.fixtures.folder_id,
        })
      ).id,
    },
  }),
  'POST /api/projects/{project_name}/versions': (_c, ctx) => ({
    body: { version: 100 + ++counter, productId: ctx.fixtures.product_id },
  }),
  'PATCH /api/projects/{project_name}/versions/{version_id}': (_c, ctx) => ({
    path: { version_id: ctx.fixtures.version_id },
    body: { tags: [fresh('tag')] },
  }),
  'DELETE /api/projects/{project_name}/versions/{version_id}': async (_c, ctx) => ({
    path: {
      version_id: (
        await asAdmin(ctx, 'POST', `${P}/versions`, {
          version: 100 + ++counter,
          productId: ctx.fixtures.product_id,
        })
      ).id,
    },
  }),
  'POST /api/projects/{project_name}/representations': (_c, ctx) => ({
    body: { name: fresh('r'), versionId: ctx.fixtures.version_id },
  }),
  'PATCH /api/projects/{project_name}/representations/{representation_id}': (_c, ctx) => ({
    path: { representation_id: ctx.fixtures.representation_id },
    body: { tags: [fresh('tag')] },
  }),
  'DELETE /api/projects/{project_name}/representations/{representation_id}': async (_c, ctx) => ({
    path: {
      representation_id: (
        await asAdmin(ctx, 'POST', `${P}/representations`, {
          name: fresh('r'),
          versionId: ctx.fixtures.version_id,
        })
      ).id,
    },
  }),
  'POST /api/projects/{project_name}/workfiles': (_c, ctx) => ({
    body: { path: `work/${fresh('w')}.ma`, taskId: ctx.fixtures.task_id },
  }),
  'PATCH /api/projects/{project_name}/workfiles/{workfile_id}': (_c, ctx) => ({
    path: { workfile_id: ctx.fixtures.workfile_id },
    body: { tags: [fresh('tag')] },
  }),
  'DELETE /api/projects/{project_name}/workfiles/{workfile_id}': async (_c, ctx) => ({
    path: {
      workfile_id: (
        await asAdmin(ctx, 'POST', `${P}/workfiles`, {
          path: `work/${fresh('w')}.ma`,
          taskId: ctx.fixtures.task_id,
        })
      ).id,
    },
  }),
  'POST /api/projects/{project_name}/folders/{folder_id}/thumbnail': (_c, ctx) => ({
    path: { folder_id: ctx.fixtures.folder_id },
    ...png,
  }),
  'POST /api/projects/{project_name}/tasks/{task_id}/thumbnail': (_c, ctx) => ({
    path: { task_id: ctx.fixtures.task_id },
    ...png,
  }),
  'POST /api/projects/{project_name}/versions/{version_id}/thumbnail': (_c, ctx) => ({
    path: { version_id: ctx.fixtures.version_id },
    ...png,
  }),
  'POST /api/projects/{project_name}/workfiles/{workfile_id}/thumbnail': (_c, ctx) => ({
    path: { workfile_id: ctx.fixtures.workfile_id },
    ...png,
  }),
  'POST /api/projects/{project_name}/thumbnails': () => png,
  'PUT /api/projects/{project_name}/thumbnails/{thumbnail_id}': () => ({
    path: { thumbnail_id: newId() },
    ...png,
  }),
  'POST /api/projects/{project_name}/operations': (_c, ctx) => ({
    body: {
      operations: [
        { type: 'create', entityType: 'task', data: { name: fresh('op'), folderId: ctx.fixtures.folder_id } },
      ],
    },
  }),
  'POST /api/projects/{project_name}/operations/background': (_c, ctx) => ({
    body: {
      operations: [
        { type: 'create', entityType: 'task', data: { name: fresh('bg'), folderId: ctx.fixtures.folder_id } },
      ],
    },
  }),
  'POST /api/projects/{project_name}/tasks/{task_id}/assign': (_c, ctx) => ({
    path: { task_id: ctx.fixtures.task_id },
    body: { mode: 'add', users: ['probe'] },
  }),
  'POST /api/resolve': () => ({ body: { uris: ['ayon+entity://demo/probe_folder'] } }),
  'POST /api/projects/{project_name}/uris': (_c, ctx) => ({
    body: { entityType: 'folder', ids: [ctx.fixtures.folder_id] },
  }),
  'POST /api/projects/{project_name}/tasksFolders': () => ({ body: {} }),
  'POST /api/projects/{project_name}/repreContextFilter': () => ({ body: {} }),

  // Projects and anatomy: managers, on projects made for the probe.
  'POST /api/projects': () => ({ body: { name: fresh('made'), code: fresh('m') } }),
  'PUT /api/projects/{project_name}': () => ({
    path: { project_name: fresh('put') },
    body: { code: fresh('c') },
  }),
  'PATCH /api/projects/{project_name}': () => ({ body: { data: { probe: fresh('v') } } }),
  'DELETE /api/projects/{project_name}': async (_c, ctx) => {
    const name = fresh('doomed');
    await asAdmin(ctx, 'POST', '/api/projects', { name, code: name });
    return { path: { project_name: name } };
  },
  'POST /api/projects/{project_name}/anatomy': async (_c, ctx) => {
    const name = fresh('redeploy');
    await asAdmin(ctx, 'POST', '/api/projects', { name, code: name });
    return { path: { project_name: name }, body: await asAdmin(ctx, 'GET', '/api/anatomy/presets/_') };
  },
  'PUT /api/projects/{project_name}/roots/{site_id}': () => ({
    path: { site_id: fresh('site') },
    body: { work: '/mnt/work' },
  }),
  'PUT /api/anatomy/presets/{preset_name}': async (_c, ctx) => ({
    path: { preset_name: fresh('preset') },
    body: await asAdmin(ctx, 'GET', '/api/anatomy/presets/_'),
  }),
  'DELETE /api/anatomy/presets/{preset_name}': async (_c, ctx) => {
    const name = await newPreset(ctx);
    return { path: { preset_name: name } };
  },
  'POST /api/anatomy/presets/{preset_name}/primary': async (_c, ctx) => {
    const name = await newPreset(ctx);
    return { path: { preset_name: name } };
  },
  'DELETE /api/anatomy/presets/{preset_name}/primary': async (_c, ctx) => {
    const name = await newPreset(ctx);
    await asAdmin(ctx, 'POST', `/api/anatomy/presets/${name}/primary`);
    return { path: { preset_name: name } };
  },
  'POST /api/anatomy/presets/{preset_name}/rename': async (_c, ctx) => {
    const name = await newPreset(ctx);
    return { path: { preset_name: name }, body: { name: fresh('renamed') } };
  },
  'PUT /api/attributes': async (_c, ctx) => ({
    body: { attributes: (await asAdmin(ctx, 'GET', '/api/attributes')).attributes },
  }),
  'PUT /api/attributes/{attribute_name}': () => ({
    path: { attribute_name: fresh('probeAttr').replace('_', '') },
    body: { position: 900 + ++counter, scope: ['folder'], data: { type: 'string', title: 'Probe' } },
  }),
  'DELETE /api/attributes/{attribute_name}': async (_c, ctx) => {
    const name = fresh('gone').replace('_', '');
    await asAdmin(ctx, 'PUT', `/api/attributes/${name}`, {
      position: 900 + ++counter,
      scope: ['folder'],
      data: { type: 'string', title: 'Gone' },
    });
    return { path: { attribute_name: name } };
  },

  // Users, sessions and keys.
  'POST /api/auth/login': () => ({ body: { name: 'probe', password: 'a long probe password' } }),
  'POST /api/auth/sessions': () => ({ body: { userName: 'probe' } }),
  'DELETE /api/users/{user_name}/sessions/{session_id}': async (_c, ctx) => {
    const login = await ctx.core.request('POST', '/api/auth/login', {
      body: { name: 'probe', password: 'a long probe password' },
    });
    const sessions = await asAdmin(ctx, 'GET', '/api/users/probe/sessions');
    const mine =
      sessions.sessions.find((s: any) => s.token === login.body.token || s.isCurrent === false) ??
      sessions.sessions.at(-1);
    return { path: { user_name: 'probe', session_id: mine.token } };
  },
  'PUT /api/users/{user_name}': () => ({ path: { user_name: fresh('new') }, body: {} }),
  'PATCH /api/users/{user_name}': () => ({
    path: { user_name: 'probe' },
    body: { attrib: { fullName: fresh('Probe') } },
  }),
  'DELETE /api/users/{user_name}': async (_c, ctx) => {
    const name = fresh('leaver');
    await asAdmin(ctx, 'PUT', `/api/users/${name}`, {});
    return { path: { user_name: name } };
  },
  'PATCH /api/users/{user_name}/password': () => ({
    path: { user_name: 'probe' },
    body: { password: 'a long probe password' },
  }),
  'PUT /api/users/{user_name}/avatar': () => ({ path: { user_name: 'probe' }, ...png, status: 200 }),
  'DELETE /api/users/{user_name}/avatar': () => ({ path: { user_name: 'probe' }, status: 200 }),
  'POST /api/users/{user_name}/checkPassword': () => ({
    path: { user_name: 'probe' },
    body: { password: 'another long password' },
  }),
  'PATCH /api/users/{user_name}/rename': renameUser,
  'POST /api/users/{user_name}/rename': renameUser,
  'PATCH /api/users/{user_name}/frontendPreferences': () => ({
    path: { user_name: 'probe' },
    body: { theme: 'dark' },
  }),
  'POST /api/users/{user_name}/apikeys': () => ({
    path: { user_name: 'probe' },
    body: { label: fresh('key') },
  }),
  'PATCH /api/users/{user_name}/apikeys/{entity_id}': async (_c, ctx) => ({
    path: {
      user_name: 'probe',
      entity_id: (await asAdmin(ctx, 'POST', '/api/users/probe/apikeys', { label: fresh('key') })).id,
    },
    body: { label: fresh('renamed') },
  }),
  'DELETE /api/users/{user_name}/apikeys/{entity_id}': async (_c, ctx) => ({
    path: {
      user_name: 'probe',
      entity_id: (await asAdmin(ctx, 'POST', '/api/users/probe/apikeys', { label: fresh('key') })).id,
    },
  }),

  // Access groups and user access.
  'PUT /api/accessGroups/{access_group_name}/{project_name}': () => ({
    path: { access_group_name: fresh('group'), project_name: '_' },
    body: {},
  }),
  'DELETE /api/accessGroups/{access_group_name}/{project_name}': async (_c, ctx) => {
    const name = fresh('group');
    await asAdmin(ctx, 'PUT', `/api/accessGroups/${name}/_`, {});
    return { path: { access_group_name: name, project_name: '_' } };
  },
  'POST /api/access': () => ({ body: { probe: { demo: ['artist'] } } }),
  'PATCH /api/users/{user_name}/accessGroups': () => ({
    path: { user_name: 'probe' },
    body: { accessGroups: [{ project: 'demo', accessGroups: ['artist'] }] },
  }),
  'PATCH /api/projects/{project_name}/users/{user_name}': () => ({
    path: { user_name: 'probe' },
    body: ['artist'],
  }),

  // Events and the live side.
  'POST /api/events': () => ({ body: { topic: 'probe.made' } }),
  'PATCH /api/events/{event_id}': (_c, ctx) => ({
    path: { event_id: ctx.fixtures.event_id },
    body: { description: fresh('seen') },
  }),
  'DELETE /api/events/{event_id}': async (_c, ctx) => ({
    path: { event_id: (await asAdmin(ctx, 'POST', '/api/events', { topic: 'probe.gone' })).id },
  }),
  'POST /api/query': () => ({
    body: { entity: 'event', filter: { conditions: [{ key: 'topic', value: 'probe.made' }] } },
  }),
  'POST /api/eventops': () => ({
    body: { type: 'delete', filter: { conditions: [{ key: 'topic', value: 'probe.nothing' }] } },
  }),
  'POST /api/enroll': async (_c, ctx) => {
    const topic = `probe.source.${++counter}`;
    await asAdmin(ctx, 'POST', '/api/events', { topic });
    return { body: { sourceTopic: topic, targetTopic: 'probe.job', sender: fresh('worker') } };
  },
  'POST /graphql': () => ({ body: { query: '{ me { name } }' } }),
  'POST /api/actions/list': () => ({ body: {} }),

  // Links.
  'PUT /api/projects/{project_name}/links/types/{*}': () => ({
    path: { '*': `${fresh('kind').replace('_', '')}|folder|task` },
    body: {},
  }),
  'DELETE /api/projects/{project_name}/links/types/{*}': async (_c, ctx) => {
    const name = `${fresh('kind').replace('_', '')}|task|task`;
    await asAdmin(ctx, 'PUT', `${P}/links/types/${name}`, {});
    return { path: { '*': name } };
  },
  'POST /api/projects/{project_name}/links': async (_c, ctx) => ({
    body: {
      input: ctx.fixtures.folder_id,
      output: await assignedFolder(ctx),
      linkType: 'probe|folder|folder',
    },
  }),
  // Normal users remove only the links they made: each admitted caller removes one of their own.
  'DELETE /api/projects/{project_name}/links/{link_id}': async (caller, ctx) => {
    const token = ctx.tokens[caller] && caller !== 'outsider' ? ctx.tokens[caller] : ctx.tokens.admin;
    const res = await ctx.core.request('POST', `${P}/links`, {
      token,
      body: {
        input: ctx.fixtures.folder_id,
        output: await assignedFolder(ctx),
        linkType: 'probe|folder|folder',
      },
    });
    if (res.status !== 200) throw new Error(`setup link as ${caller}: ${res.status} ${res.text}`);
    return { path: { link_id: res.body.id } };
  },

  'POST /api/projects/{project_name}/history/latest': (_c, ctx) => ({
    body: { entityType: 'folder', entityIds: [ctx.fixtures.folder_id] },
  }),
  // Webhooks of the project (a manager's); the target's name does not resolve here, which saving allows.
  'POST /api/webhooks': () => ({ body: probeWebhook() }),
  'PATCH /api/webhooks/{webhook_id}': async (_c, ctx) => ({
    path: { webhook_id: await newWebhook(ctx) },
    body: { name: 'renamed', active: false },
  }),
  'DELETE /api/webhooks/{webhook_id}': async (_c, ctx) => ({ path: { webhook_id: await newWebhook(ctx) } }),
  'POST /api/webhooks/{webhook_id}/secret': async (_c, ctx) => ({
    path: { webhook_id: await newWebhook(ctx) },
  }),
  'POST /api/webhooks/{webhook_id}/ping': async (_c, ctx) => ({
    path: { webhook_id: await newWebhook(ctx) },
  }),
  // Marking ids that are none of the caller's changes nothing, and says so with 204 all the same.
  'POST /api/notices': () => ({ body: { ids: ['0'.repeat(32)], status: 'read' } }),
  'POST /api/webhooks/{webhook_id}/replay': async (_c, ctx) => ({
    path: { webhook_id: await newWebhook(ctx) },
    body: { since: new Date(Date.now() - 3_600_000).toISOString() },
  }),
  'POST /api/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver': async (_c, ctx) => {
    const webhook = await newWebhook(ctx);
    const ping = await asAdmin(ctx, 'POST', `/api/webhooks/${webhook}/ping`);
    return { path: { webhook_id: webhook, delivery_id: ping.id } };
  },

  // Studio administration.
  'PUT /api/secrets/{secret_name}': () => ({
    path: { secret_name: fresh('secret') },
    body: { value: 'shh' },
  }),
  'DELETE /api/secrets/{secret_name}': async (_c, ctx) => {
    const name = fresh('secret');
    await asAdmin(ctx, 'PUT', `/api/secrets/${name}`, { value: 'shh' });
    return { path: { secret_name: name } };
  },
  'POST /api/hosts/heartbeat': () => ({
    body: { hostname: fresh('host'), health: { cpu: 10, mem: 20 }, services: [] },
  }),
  'POST /api/system/restartRequired': () => ({ body: { required: false } }),
  'POST /api/system/restart': () => ({}),
  'DELETE /api/system/sites/{site_id}': async (_c, ctx) => {
    const site = fresh('site');
    await asAdmin(ctx, 'GET', '/api/users/me', undefined, { 'x-ayon-site-id': site });
    return { path: { site_id: site } };
  },
  'POST /api/config': () => ({ body: {} }),
  'PATCH /api/config': () => ({ body: { studioName: 'Probe Studio' } }),
  'PUT /api/config/files/{file_type}': () => ({ path: { file_type: 'studio_logo' }, ...png }),
  'POST /api/onboarding/abort': () => ({}),
  'POST /api/onboarding/restart': () => ({}),

  // Teams.
  'PATCH /api/projects/{project_name}/teams': () => ({ body: [{ name: fresh('crew'), members: [] }] }),
  'PUT /api/projects/{project_name}/teams/{team_name}': () => ({
    path: { team_name: fresh('crew') },
    body: { members: [] },
  }),
  'DELETE /api/projects/{project_name}/teams/{team_name}': async (_c, ctx) => {
    return { path: { team_name: await newTeam(ctx) } };
  },
  'PUT /api/projects/{project_name}/teams/{team_name}/members/{member_name}': async (_c, ctx) => {
    return { path: { team_name: await newTeam(ctx), member_name: 'probe' }, body: {} };
  },
  'DELETE /api/projects/{project_name}/teams/{team_name}/members/{member_name}': async (_c, ctx) => {
    return { path: { team_name: await newTeam(ctx, [{ name: 'probe' }]), member_name: 'probe' } };
  },
};

/**
 * Writes whose success needs something no probe can make here, with what admitted callers get instead:
 * no addon in the matrix contributes actions or describes services, and a token is only issued by an execute.
 */
export const WRITES_WITHOUT_SUCCESS: Record<string, number> = {
  // A guest's writes need a guest session, which no caller of the matrix has.
  'POST /api/guest/versions/{version_id}/comments': 401,
  'POST /api/guest/versions/{version_id}/approve': 401,
  // Installing needs a zip body (plugins/addons/test/install.test.ts); nothing is installed to delete.
  'POST /api/addons/install': 400,
  'DELETE /api/addons/{addon_name}': 404,
  'DELETE /api/addons/{addon_name}/{addon_version}': 404,
  'POST /api/actions/config': 404,
  'POST /api/actions/execute': 404,
  'POST /api/actions/abort/{token}': 404,
  'PUT /api/services/{name}': 404,
  'PATCH /api/services/{service_name}': 404,
  'DELETE /api/services/{name}': 404,
  // No mail server is configured here (plugins/users/test/password-reset.test.ts runs a real one), and no reset
  // link was mailed whose token could be used.
  'POST /api/users/passwordResetRequest': 503,
  'POST /api/users/passwordReset': 403,
};
