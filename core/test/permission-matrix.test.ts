import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Type, defineAddon, newId } from '@pipewright/sdk';
import { bootTestCore, type TestCore } from '../src/testing.js';
import { WRITES, WRITES_WITHOUT_SUCCESS, pngFile, type Caller } from './matrix-writes.js';
import { activitiesRef } from '@pipewright/plugin-activities/api';
import { usersRef } from '@pipewright/plugin-users/api';

// Every route of every internal addon, as /openapi.json lists it, against seven callers. Who may call a route is
// written down here, route by route (RULES), independently of the code: a caller the rule refuses must get exactly
// 401 (anonymous) or 403; a caller it admits must not be refused and must never see a 500. Bodies are sampled from
// each route's own schema, and targets that writes could destroy are names and ids that do not exist, so admitted
// callers mostly meet 404/409/422 after the access check, which is what this suite is about.

const CALLERS: Caller[] = ['anonymous', 'outsider', 'freelancer', 'artist', 'supervisor', 'manager', 'admin'];

/**
 * Who is admitted: public, any logged-in user, users of the project, users whose groups give project access
 * level >= 1 (or an unrestricted create whitelist), managers, admins, and routes about another user.
 */
type Rule =
  | 'public'
  | 'user'
  | 'project'
  | 'projectAccess'
  | 'createAnywhere'
  | 'manager'
  | 'admin'
  | 'self'
  | 'selfAdmin';

const admitted: Record<Rule, Caller[]> = {
  public: CALLERS,
  user: ['outsider', 'freelancer', 'artist', 'supervisor', 'manager', 'admin'],
  project: ['freelancer', 'artist', 'supervisor', 'manager', 'admin'],
  projectAccess: ['supervisor', 'manager', 'admin'],
  // Creating at the top of the folder tree: the default artist and freelancer groups create only where they
  // have assigned tasks.
  createAnywhere: ['supervisor', 'manager', 'admin'],
  manager: ['manager', 'admin'],
  admin: ['admin'],
  // Routes about a user (sessions, password, keys, permissions) that only that user or a manager may use; the
  // target here is another user, so only managers and admins are admitted.
  self: ['manager', 'admin'],
  // ... and those only that user or an administrator may use (API keys, preferences).
  selfAdmin: ['admin'],
};

/** "METHOD path" (as /openapi.json spells it) to its rule; every route must be listed. */
const RULES: Record<string, Rule> = {
  // Reviewables: reading follows the entity's read access; uploading needs publish rights (the probe folder holds
  // the artist's and the freelancer's task); order and label are the uploader's or a manager's.
  'GET /api/projects/{project_name}/versions/{version_id}/reviewables': 'project',
  'GET /api/projects/{project_name}/products/{product_id}/reviewables': 'project',
  'GET /api/projects/{project_name}/tasks/{task_id}/reviewables': 'project',
  'GET /api/projects/{project_name}/folders/{folder_id}/reviewables': 'project',
  'POST /api/projects/{project_name}/versions/{version_id}/reviewables': 'project',
  'PATCH /api/projects/{project_name}/versions/{version_id}/reviewables': 'project',
  'PATCH /api/projects/{project_name}/versions/{version_id}/reviewables/{activity_id}': 'project',
  // Annotations of a reviewable: read and drawn by whoever reads the version; changed by their author.
  'GET /api/projects/{project_name}/versions/{version_id}/reviewables/{activity_id}/annotations': 'project',
  'POST /api/projects/{project_name}/versions/{version_id}/reviewables/{activity_id}/annotations': 'project',
  'PATCH /api/projects/{project_name}/versions/{version_id}/reviewables/{activity_id}/annotations/{annotation_id}':
    'project',
  'DELETE /api/projects/{project_name}/versions/{version_id}/reviewables/{activity_id}/annotations/{annotation_id}':
    'project',
  // Their interchange files: exported by whoever reads the version, imported by whoever may draw.
  'GET /api/projects/{project_name}/versions/{version_id}/reviewables/{activity_id}/annotations/otio':
    'project',
  'POST /api/projects/{project_name}/versions/{version_id}/reviewables/{activity_id}/annotations/otio':
    'project',
  'GET /api/projects/{project_name}/versions/{version_id}/reviewables/{activity_id}/annotations/openrv':
    'project',
  'POST /api/projects/{project_name}/versions/{version_id}/reviewables/{activity_id}/annotations/openrv':
    'project',
  'POST /api/projects/{project_name}/versions/{version_id}/reviewables/{activity_id}/annotations/live':
    'project',
  // Review sessions: whoever reads the list joins; the driver commands and hands control on.
  'GET /api/projects/{project_name}/lists/{list_id}/session': 'project',
  'POST /api/projects/{project_name}/lists/{list_id}/session': 'project',
  'GET /api/review-sessions/clock': 'user',
  // Review reports: of a list its readers may read, of a version whoever reads it.
  'GET /api/projects/{project_name}/lists/{list_id}/review-report': 'project',
  'GET /api/projects/{project_name}/versions/{version_id}/review-report': 'project',
  // Guest links: made, revoked and their logs read by managers and whoever may change the list or version (the
  // probe list is only readable to the others); listed for any project user (the links they may manage). Guests
  // call /api/guest/... without an account: those routes are open, and refuse a missing session with 401.
  'POST /api/projects/{project_name}/guest-links': 'manager',
  'GET /api/projects/{project_name}/guest-links': 'project',
  'DELETE /api/projects/{project_name}/guest-links/{guest_link_id}': 'manager',
  'GET /api/projects/{project_name}/guest-links/{guest_link_id}/log': 'manager',
  'POST /api/guest/link': 'public',
  'POST /api/guest/open': 'public',
  'GET /api/guest/items': 'public',
  'GET /api/guest/files/{file_id}': 'public',
  'GET /api/guest/live': 'public',
  'GET /api/guest/versions/{version_id}/reviewables/{activity_id}/annotations': 'public',
  'GET /api/guest/versions/{version_id}/comments': 'public',
  'POST /api/guest/versions/{version_id}/comments': 'public',
  'POST /api/guest/versions/{version_id}/approve': 'public',
  // Activities: any project user comments and reads; editing and deleting are the author's (and admins').
  'POST /api/projects/{project_name}/{entity_type}/{entity_id}/activities': 'project',
  'PATCH /api/projects/{project_name}/activities/{activity_id}': 'project',
  'DELETE /api/projects/{project_name}/activities/{activity_id}': 'project',
  'POST /api/projects/{project_name}/activities/{activity_id}/reactions': 'project',
  'DELETE /api/projects/{project_name}/activities/{activity_id}/reactions/{reaction}': 'project',
  'GET /api/projects/{project_name}/{entity_type}/{entity_id}/watchers': 'project',
  'POST /api/projects/{project_name}/{entity_type}/{entity_id}/watchers': 'project',
  'POST /api/projects/{project_name}/suggest': 'project',
  'POST /api/projects/{project_name}/operations/activities': 'project',
  'POST /api/inbox': 'project',
  // Project files: project users upload and read; the uploader (here the administrator) or a manager deletes.
  'POST /api/projects/{project_name}/files': 'project',
  'GET /api/projects/{project_name}/files/{file_id}': 'project',
  'GET /api/projects/{project_name}/files/{file_id}/payload': 'project',
  'GET /api/projects/{project_name}/files/{file_id}/info': 'project',
  'GET /api/projects/{project_name}/files/{file_id}/thumbnail': 'project',
  'GET /api/projects/{project_name}/files/{file_id}/still': 'project',
  'DELETE /api/projects/{project_name}/files/{file_id}': 'manager',
  // Entity lists: any project user may create one and make list folders; the list's own access levels decide
  // the rest, and the probes share each list with everyone at the level the route needs.
  'POST /api/projects/{project_name}/lists': 'project',
  'GET /api/projects/{project_name}/lists/{entity_list_id}': 'project',
  'PATCH /api/projects/{project_name}/lists/{entity_list_id}': 'project',
  'DELETE /api/projects/{project_name}/lists/{entity_list_id}': 'project',
  'GET /api/projects/{project_name}/lists/{entity_list_id}/attributes': 'project',
  'PUT /api/projects/{project_name}/lists/{entity_list_id}/attributes': 'project',
  'GET /api/projects/{project_name}/lists/{entity_list_id}/entities': 'project',
  'POST /api/projects/{project_name}/lists/{entity_list_id}/items': 'project',
  'PATCH /api/projects/{project_name}/lists/{entity_list_id}/items/{entity_list_item_id}': 'project',
  'DELETE /api/projects/{project_name}/lists/{entity_list_id}/items/{entity_list_item_id}': 'project',
  'PATCH /api/projects/{project_name}/lists/{list_id}/items': 'project',
  'POST /api/projects/{project_name}/lists/{entity_list_id}/materialize': 'project',
  'POST /api/projects/{project_name}/lists/{entity_list_id}/order': 'project',
  'GET /api/projects/{project_name}/entityListFolders': 'project',
  'POST /api/projects/{project_name}/entityListFolders': 'project',
  'POST /api/projects/{project_name}/entityListFolders/order': 'project',
  'PATCH /api/projects/{project_name}/entityListFolders/{folder_id}': 'project',
  'DELETE /api/projects/{project_name}/entityListFolders/{folder_id}': 'project',
  // Views belong to their owner; anyone logged in keeps their own.
  'GET /api/views/{view_type}': 'user',
  'POST /api/views/{view_type}': 'user',
  'GET /api/views/{view_type}/working': 'user',
  'GET /api/views/{view_type}/default': 'user',
  'POST /api/views/{view_type}/default': 'user',
  'GET /api/views/{view_type}/{view_id}': 'user',
  'PATCH /api/views/{view_type}/{view_id}': 'user',
  'DELETE /api/views/{view_type}/{view_id}': 'user',
  'GET /api/projects/{project_name}/dashboard/entities': 'project',
  'GET /api/projects/{project_name}/dashboard/health': 'project',
  'GET /api/projects/{project_name}/dashboard/users': 'project',
  'GET /api/projects/{project_name}/dashboard/activity': 'project',
  'POST /api/auth/login': 'public',
  'GET /api/auth/sessions': 'user',
  'GET /api/auth/pools': 'manager',
  'POST /api/auth/sessions': 'admin',
  'GET /api/users/{user_name}/sessions': 'self',
  'DELETE /api/users/{user_name}/sessions/{session_id}': 'self',
  'GET /api/attributes': 'user',
  'PUT /api/attributes': 'admin',
  'GET /api/attributes/{attribute_name}': 'user',
  'PUT /api/attributes/{attribute_name}': 'admin',
  'DELETE /api/attributes/{attribute_name}': 'admin',
  'GET /api/anatomy/schema': 'user',
  'GET /api/anatomy/presets': 'user',
  'GET /api/anatomy/presets/{preset_name}': 'user',
  'PUT /api/anatomy/presets/{preset_name}': 'manager',
  'DELETE /api/anatomy/presets/{preset_name}': 'manager',
  'POST /api/anatomy/presets/{preset_name}/primary': 'manager',
  'DELETE /api/anatomy/presets/{preset_name}/primary': 'manager',
  'POST /api/anatomy/presets/{preset_name}/rename': 'manager',
  'GET /api/projects': 'user',
  'POST /api/projects': 'manager',
  'PUT /api/projects/{project_name}': 'manager',
  'GET /api/projects/{project_name}': 'project',
  'PATCH /api/projects/{project_name}': 'manager',
  'DELETE /api/projects/{project_name}': 'manager',
  'GET /api/projects/{project_name}/anatomy': 'project',
  'POST /api/projects/{project_name}/anatomy': 'manager',
  'GET /api/projects/{project_name}/roots': 'project',
  'PUT /api/projects/{project_name}/roots/{site_id}': 'project',
  'GET /api/projects/{project_name}/siteRoots': 'project',
  'GET /api/projects/{project_name}/folders': 'project',
  'GET /api/projects/{project_name}/hierarchy': 'project',
  'GET /api/projects/{project_name}/stats': 'project',
  'GET /api/projects/{project_name}/tags': 'project',
  'GET /api/projects/{project_name}/productTypes': 'project',
  'POST /api/projects/{project_name}/operations': 'project',
  'POST /api/projects/{project_name}/operations/background': 'project',
  'GET /api/projects/{project_name}/operations/background/{task_id}': 'project',
  'POST /api/projects/{project_name}/tasks/{task_id}/assign': 'project',
  'POST /api/resolve': 'user',
  'POST /api/projects/{project_name}/uris': 'project',
  'POST /api/projects/{project_name}/tasksFolders': 'project',
  'POST /api/projects/{project_name}/repreContextFilter': 'project',
  'GET /api/users': 'user',
  'GET /api/users/me': 'user',
  'GET /api/users/{user_name}': 'user',
  'PUT /api/users/{user_name}': 'manager',
  'PATCH /api/users/{user_name}': 'manager',
  'DELETE /api/users/{user_name}': 'manager',
  'PATCH /api/users/{user_name}/password': 'selfAdmin',
  // Everyone may read a face; only its owner or an administrator may change it.
  'GET /api/users/{user_name}/avatar': 'user',
  'PUT /api/users/{user_name}/avatar': 'selfAdmin',
  'DELETE /api/users/{user_name}/avatar': 'selfAdmin',
  // Password reset is for people who cannot log in.
  'POST /api/users/passwordResetRequest': 'public',
  'POST /api/users/passwordReset': 'public',
  'POST /api/users/{user_name}/checkPassword': 'user', // checks a password against the policy
  'PATCH /api/users/{user_name}/rename': 'manager',
  'POST /api/users/{user_name}/rename': 'manager',
  'PATCH /api/users/{user_name}/frontendPreferences': 'selfAdmin',
  'GET /api/users/{user_name}/apikeys': 'selfAdmin',
  'POST /api/users/{user_name}/apikeys': 'selfAdmin',
  'PATCH /api/users/{user_name}/apikeys/{entity_id}': 'selfAdmin',
  'DELETE /api/users/{user_name}/apikeys/{entity_id}': 'selfAdmin',
  'GET /api/accessGroups/_schema': 'user',
  'GET /api/accessGroups/{project_name}': 'project',
  'GET /api/accessGroups/{access_group_name}/{project_name}': 'project',
  'PUT /api/accessGroups/{access_group_name}/{project_name}': 'manager',
  'DELETE /api/accessGroups/{access_group_name}/{project_name}': 'manager',
  'POST /api/access': 'manager',
  'PATCH /api/users/{user_name}/accessGroups': 'manager',
  'GET /api/projects/{project_name}/users': 'projectAccess',
  'PATCH /api/projects/{project_name}/users/{user_name}': 'projectAccess',
  'GET /api/users/me/permissions': 'user',
  'GET /api/users/me/permissions/{project_name}': 'project',
  'GET /api/users/me/access/{project_name}': 'project',
  'GET /api/users/{user_name}/permissions': 'self',
  'GET /api/users/{user_name}/permissions/{project_name}': 'self',
  'GET /api/share': 'user',
  'POST /api/actions/list': 'user',
  'GET /api/actions/manage': 'manager',
  'POST /api/actions/config': 'user',
  'POST /api/actions/execute': 'user',
  'GET /api/actions/take/{token}': 'user',
  'POST /api/actions/abort/{token}': 'user',
  'GET /api/addons': 'user',
  'GET /api/frontendModules': 'user',
  'GET /api/addons/install': 'admin',
  'POST /api/addons': 'admin',
  'GET /api/addons/{addon_name}/{addon_version}/schema': 'user',
  'GET /api/addons/{addon_name}/{addon_version}/settings': 'user',
  'POST /api/addons/{addon_name}/{addon_version}/settings': 'manager',
  'GET /api/addons/{addon_name}/{addon_version}/overrides': 'manager',
  'POST /api/addons/{addon_name}/{addon_version}/overrides': 'manager',
  'DELETE /api/addons/{addon_name}/{addon_version}/overrides': 'manager',
  'GET /api/addons/{addon_name}/{addon_version}/rawOverrides': 'admin',
  'PUT /api/addons/{addon_name}/{addon_version}/rawOverrides': 'admin',
  // A project's settings are for the project's users (AYON's project name dependency), managers change them.
  'GET /api/addons/{addon_name}/{addon_version}/schema/{project_name}': 'project',
  'GET /api/addons/{addon_name}/{addon_version}/settings/{project_name}': 'project',
  'GET /api/addons/{addon_name}/{addon_version}/overrides/{project_name}': 'project',
  'POST /api/addons/{addon_name}/{addon_version}/settings/{project_name}': 'manager',
  'POST /api/addons/{addon_name}/{addon_version}/overrides/{project_name}': 'manager',
  'DELETE /api/addons/{addon_name}/{addon_version}/overrides/{project_name}': 'manager',
  'GET /api/addons/{addon_name}/{addon_version}/rawOverrides/{project_name}': 'admin',
  'PUT /api/addons/{addon_name}/{addon_version}/rawOverrides/{project_name}': 'admin',
  'GET /api/addons/{addon_name}/{addon_version}/siteSettings/schema': 'user',
  'GET /api/addons/{addon_name}/{addon_version}/siteSettings': 'user',
  'PUT /api/addons/{addon_name}/{addon_version}/siteSettings': 'user',
  'GET /api/settings': 'user',
  'GET /api/settings/addons': 'user',
  'GET /api/settings/addons/siteSettings': 'user',
  'POST /api/migrateSettingsByBundle': 'admin',
  'GET /api/bundles': 'user',
  'POST /api/bundles': 'admin',
  'POST /api/bundles/check': 'user',
  'POST /api/bundles/{bundle_name}': 'admin',
  'PATCH /api/bundles/{bundle_name}': 'admin',
  'DELETE /api/bundles/{bundle_name}': 'admin',
  'POST /api/projects/{project_name}/bundles': 'manager',
  'GET /api/connect': 'user',
  'POST /api/connect': 'admin',
  'DELETE /api/connect': 'admin',
  'GET /api/connect/authorize': 'public',
  'GET /api/connect/feedback': 'user',
  'GET /api/market/addons': 'admin',
  'GET /api/market/addons/{addon_name}': 'admin',
  'GET /api/market/addons/{addon_name}/{addon_version}': 'admin',
  'GET /api/market/licenses': 'admin',
  'GET /api/market/releases': 'user',
  'GET /api/market/releases/{release_name}': 'user',
  'GET /api/desktop/installers': 'user',
  'POST /api/desktop/installers': 'admin',
  'GET /api/desktop/installers/{filename}': 'user',
  'PUT /api/desktop/installers/{filename}': 'admin',
  'PATCH /api/desktop/installers/{filename}': 'admin',
  'DELETE /api/desktop/installers/{filename}': 'admin',
  'GET /api/desktop/dependencyPackages': 'user',
  'POST /api/desktop/dependencyPackages': 'admin',
  'GET /api/desktop/dependencyPackages/{filename}': 'user',
  'PUT /api/desktop/dependencyPackages/{filename}': 'admin',
  'PATCH /api/desktop/dependencyPackages/{filename}': 'admin',
  'DELETE /api/desktop/dependencyPackages/{filename}': 'admin',
  'POST /api/addons/install': 'admin',
  'DELETE /api/addons/{addon_name}': 'admin',
  'DELETE /api/addons/{addon_name}/{addon_version}': 'admin',
  'POST /api/events': 'manager',
  // Others read only their own events; the probed event is the admin's.
  'GET /api/events/{event_id}': 'manager',
  // Others change only their own events; the probed event is the admin's.
  'PATCH /api/events/{event_id}': 'manager',
  'DELETE /api/events/{event_id}': 'admin',
  'POST /api/query': 'admin',
  'POST /api/eventops': 'admin',
  'POST /api/enroll': 'admin',
  // Field history follows the entity's read access; the project-wide export is for managers.
  'GET /api/projects/{project_name}/folders/{folder_id}/history': 'project',
  'GET /api/projects/{project_name}/tasks/{task_id}/history': 'project',
  'GET /api/projects/{project_name}/products/{product_id}/history': 'project',
  'GET /api/projects/{project_name}/versions/{version_id}/history': 'project',
  'GET /api/projects/{project_name}/representations/{representation_id}/history': 'project',
  'GET /api/projects/{project_name}/workfiles/{workfile_id}/history': 'project',
  'POST /api/projects/{project_name}/history/latest': 'project',
  'GET /api/projects/{project_name}/history/export': 'manager',
  // Webhooks: managers for their projects, administrators for the studio (the probes use a project's).
  'GET /api/webhooks': 'manager',
  'POST /api/webhooks': 'manager',
  'GET /api/webhooks/{webhook_id}': 'manager',
  'PATCH /api/webhooks/{webhook_id}': 'manager',
  'DELETE /api/webhooks/{webhook_id}': 'manager',
  'POST /api/webhooks/{webhook_id}/secret': 'manager',
  'POST /api/webhooks/{webhook_id}/ping': 'manager',
  'GET /api/webhooks/{webhook_id}/deliveries': 'manager',
  'GET /api/webhooks/{webhook_id}/deliveries/{delivery_id}': 'manager',
  'POST /api/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver': 'manager',
  'POST /api/webhooks/{webhook_id}/replay': 'manager',
  // Each user reads and marks their own notices.
  'GET /api/notices': 'user',
  'POST /api/notices': 'user',
  'GET /api/projects/{project_name}/links/types': 'project',
  'PUT /api/projects/{project_name}/links/types/{*}': 'manager',
  'DELETE /api/projects/{project_name}/links/types/{*}': 'manager',
  'POST /api/projects/{project_name}/links': 'project',
  'GET /api/projects/{project_name}/links/{link_id}': 'project',
  'DELETE /api/projects/{project_name}/links/{link_id}': 'project',
  'GET /graphql': 'user',
  'POST /graphql': 'user',
  'GET /api/info': 'public',
  'POST /api/onboarding/abort': 'admin',
  'POST /api/onboarding/restart': 'admin',
  'GET /api/secrets': 'manager',
  'GET /api/secrets/{secret_name}': 'manager',
  'PUT /api/secrets/{secret_name}': 'admin',
  'DELETE /api/secrets/{secret_name}': 'admin',
  'GET /api/services': 'manager',
  'PUT /api/services/{name}': 'admin',
  'DELETE /api/services/{name}': 'admin',
  'PATCH /api/services/{service_name}': 'admin',
  'GET /api/hosts': 'manager',
  'POST /api/hosts/heartbeat': 'admin',
  'GET /api/metrics': 'manager',
  'GET /api/metrics/system': 'manager',
  'GET /api/system/restartRequired': 'user',
  'POST /api/system/restartRequired': 'admin',
  'POST /api/system/restart': 'admin',
  'GET /api/system/sites': 'user',
  'DELETE /api/system/sites/{site_id}': 'manager',
  'GET /api/config/schema': 'user',
  'GET /api/config': 'admin',
  'POST /api/config': 'admin',
  'PATCH /api/config': 'admin',
  'GET /api/config/overrides': 'admin',
  'GET /api/config/value/{key}': 'public',
  'GET /api/config/files/{file_type}': 'public',
  'PUT /api/config/files/{file_type}': 'admin',
  'GET /api/projects/{project_name}/teams': 'project',
  'PATCH /api/projects/{project_name}/teams': 'manager',
  'PUT /api/projects/{project_name}/teams/{team_name}': 'manager',
  'DELETE /api/projects/{project_name}/teams/{team_name}': 'manager',
  'PUT /api/projects/{project_name}/teams/{team_name}/members/{member_name}': 'manager',
  'DELETE /api/projects/{project_name}/teams/{team_name}/members/{member_name}': 'manager',
  'POST /api/projects/{project_name}/thumbnails': 'project',
  'GET /api/projects/{project_name}/thumbnails/{thumbnail_id}': 'manager',
  'PUT /api/projects/{project_name}/thumbnails/{thumbnail_id}': 'manager',
};
// The six entity types share one set of routes, and four of them have thumbnails.
for (const plural of ['folders', 'tasks', 'products', 'versions', 'representations', 'workfiles']) {
  const one = `/api/projects/{project_name}/${plural}/{${plural.slice(0, -1)}_id}`;
  RULES[`POST /api/projects/{project_name}/${plural}`] = plural === 'folders' ? 'createAnywhere' : 'project';
  for (const method of ['GET', 'PATCH', 'DELETE']) RULES[`${method} ${one}`] = 'project';
  if (['folders', 'tasks', 'versions', 'workfiles'].includes(plural)) {
    RULES[`GET ${one}/thumbnail`] = 'project';
    RULES[`POST ${one}/thumbnail`] = 'project';
  }
}

/**
 * Routes whose query changes who may call them (a project or a site named in the query), probed once more with it.
 * Site overrides inside a project are the caller's own: any user of the project may change them.
 */
const SETTINGS = '/api/addons/{addon_name}/{addon_version}';
const SITE = { site_id: 'probe-site' };
const QUERY_VARIANTS: {
  key: string;
  query: Record<string, string>;
  rule: Rule;
  body?: unknown;
  status: number;
}[] = [
  { key: 'GET /api/settings', query: { project_name: 'demo' }, rule: 'project', status: 200 },
  { key: 'GET /api/settings', query: { project_name: 'demo', ...SITE }, rule: 'project', status: 200 },
  { key: 'GET /api/settings/addons', query: { project: 'demo' }, rule: 'project', status: 200 },
  { key: 'GET /api/settings/addons', query: { project: 'demo', ...SITE }, rule: 'project', status: 200 },
  { key: `GET ${SETTINGS}/settings/{project_name}`, query: SITE, rule: 'project', status: 200 },
  { key: `GET ${SETTINGS}/overrides/{project_name}`, query: SITE, rule: 'project', status: 200 },
  { key: `GET ${SETTINGS}/schema/{project_name}`, query: SITE, rule: 'project', status: 200 },
  { key: `POST ${SETTINGS}/settings/{project_name}`, query: SITE, rule: 'project', body: {}, status: 204 },
  {
    key: `POST ${SETTINGS}/overrides/{project_name}`,
    query: SITE,
    rule: 'project',
    body: { action: 'delete', path: ['x'] },
    status: 204,
  },
  { key: `DELETE ${SETTINGS}/overrides/{project_name}`, query: SITE, rule: 'project', status: 204 },
];

// Routes this suite does not call, and why.
const SKIPPED = new Set([
  'POST /api/auth/logout', // would end the caller's own session midway; covered by the auth tests
  'POST /api/onboarding/initialize', // refused once an administrator exists, whoever asks; covered by onboarding
  // Public, but what it answers depends on the token and on whether the caller is logged in already (a login, or
  // "already logged in"); covered by plugins/auth/test/token-auth.test.ts.
  'GET /api/auth/tokenauth',
]);

/** A value that satisfies a JSON schema (the first alternative of a union, the minimum of a range, ...). */
function sample(schema: any): unknown {
  if (!schema) return null;
  if (schema.default !== undefined) return schema.default;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return sample(alternatives.find((s: any) => s.type !== 'null') ?? alternatives[0]);
  switch (schema.type) {
    case 'object': {
      const value: Record<string, unknown> = {};
      for (const key of schema.required ?? []) value[key] = sample(schema.properties?.[key]);
      return value;
    }
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => sample(schema.items));
    case 'integer':
    case 'number':
      return schema.minimum ?? schema.exclusiveMinimum ?? 1;
    case 'boolean':
      return false;
    case 'null':
      return null;
    case 'string':
      if (schema.pattern === '^[0-9a-f]{32}$') return newId();
      if (schema.format === 'date-time') return new Date().toISOString();
      if (schema.pattern?.startsWith('^https?://')) return 'https://studio.example.com/settings';
      if (schema.pattern && /\[0-9a-f\]\{64\}/.test(schema.pattern)) return 'a'.repeat(64);
      return 'probe'.padEnd(schema.minLength ?? 0, 'x');
    default:
      return {};
  }
}

/** Bodies that must be right for the route to mean anything (a login with a real password). */
const BODIES: Record<string, unknown> = {
  'POST /api/auth/login': { name: 'probe', password: 'a long probe password' },
  'POST /api/users/passwordResetRequest': {
    email: 'probe@example.com',
    url: 'https://pipewright.example.com/reset',
  },
};

/** Path parameters: the project everyone but the outsider may use, and names and ids nothing else depends on. */
function fillPath(path: string, project: string, method: string, given: Record<string, string> = {}): string {
  return path.replace(/\{([^}]+)\}/g, (_match, name: string) => {
    if (given[name] !== undefined) return encodeURIComponent(given[name]).replace(/%7C/g, '|');
    if (name === 'project_name') return project;
    // Reads name real entities (so admitted callers get exactly 200); writes name ids nothing depends on.
    if (method === 'GET' && fixtures[name]) return fixtures[name];
    if (name.endsWith('_id') && name !== 'site_id') return newId();
    if (name === 'token') return 'a'.repeat(64);
    if (name === 'file_type') return 'studio_logo';
    if (name === 'key') return 'studioName';
    if (name === '*') return method === 'GET' ? 'probe|folder|folder' : 'other|task|task';
    if (name === 'attribute_name') return 'fps';
    if (name === 'addon_name') return 'settings-probe';
    if (name === 'addon_version') return '1.0.0';
    if (name === 'preset_name') return method === 'GET' ? '_' : 'probe';
    if (name === 'access_group_name') return 'artist';
    return 'probe';
  });
}

/**
 * GET routes whose admitted callers do not get 200 even with real targets: nothing of the kind exists (a token
 * never issued, a file never uploaded, background operations never started), or a query is required.
 */
const NOT_200: Record<string, number> = {
  // Guest routes without a guest session (the matrix's callers have accounts, not guest links).
  'GET /api/guest/items': 401,
  'GET /api/guest/files/{file_id}': 401,
  'GET /api/guest/live': 401,
  'GET /api/guest/versions/{version_id}/reviewables/{activity_id}/annotations': 401,
  'GET /api/guest/versions/{version_id}/comments': 401,
  // An entity without a thumbnail answers the placeholder image with 203.
  'GET /api/actions/take/{token}': 404,
  'GET /graphql': 400,
  'GET /api/projects/{project_name}/operations/background/{task_id}': 404,
  'GET /api/config/files/{file_type}': 404,
  // The browser is sent on to Ynput Cloud.
  'GET /api/connect/authorize': 307,
  // Not in the market catalogue.
  'GET /api/market/addons/{addon_name}': 404,
  'GET /api/market/addons/{addon_name}/{addon_version}': 404,
  'GET /api/market/releases/{release_name}': 404,
  // Licenses come from Ynput Cloud, and this server is not connected.
  'GET /api/market/licenses': 403,
  // Registered (fixtures) but never uploaded.
  'GET /api/desktop/installers/{filename}': 404,
  'GET /api/desktop/dependencyPackages/{filename}': 404,
  'GET /api/projects/{project_name}/folders/{folder_id}/thumbnail': 203,
  'GET /api/projects/{project_name}/versions/{version_id}/thumbnail': 203,
  'GET /api/projects/{project_name}/workfiles/{workfile_id}/thumbnail': 203,
  'GET /api/projects/{project_name}/tasks/{task_id}/thumbnail': 203,
  // The file itself is sent on to its payload.
  'GET /api/projects/{project_name}/files/{file_id}': 302,
  // Nobody has a working view or chose a default.
  'GET /api/views/{view_type}/working': 404,
  'GET /api/views/{view_type}/default': 404,
};

/** Path parameter name to a real target, made in beforeAll. */
const fixtures: Record<string, string> = {};

let core: TestCore;
const tokens: Partial<Record<Caller, string>> = {};
let routes: { method: string; path: string; operation: any }[] = [];

beforeAll(async () => {
  // No Ynput Cloud here: calls that need it fail fast on a closed port instead of waiting for DNS.
  process.env.YNPUT_CLOUD_URL = 'http://127.0.0.1:9';
  core = await bootTestCore({
    // An addon with studio and site settings, for the settings routes.
    extraAddons: [
      defineAddon({
        name: 'settings-probe',
        version: '1.0.0',
        title: 'Settings probe',
        settings: {
          studio: Type.Object({ x: Type.Number({ default: 1 }) }),
          site: Type.Object({ cache: Type.String({ default: '/tmp/probe' }) }),
        },
      }),
    ],
    addons: [
      'access',
      'actions',
      'activities',
      'addons',
      'anatomy',
      'attributes',
      'auth',
      'bundles',
      'connect',
      'dashboard',
      'desktop',
      'entities',
      'events',
      'files',
      'graphql',
      'history',
      'links',
      'lists',
      'market',
      'onboarding',
      'projects',
      'reviewables',
      'secrets',
      'services',
      'settings',
      'settings-probe',
      'system',
      'teams',
      'thumbnails',
      'users',
      'views',
      'webapp',
      'webhooks',
      'websocket',
      'notices',
      'annotations',
      'review-reports',
      'review-sessions',
      'guest-links',
    ],
  });
  const users = core.services.get(usersRef);
  const people: Record<Exclude<Caller, 'anonymous'>, Record<string, unknown>> = {
    admin: { isAdmin: true },
    manager: { isManager: true },
    supervisor: { accessGroups: { demo: ['supervisor'] } },
    artist: { accessGroups: { demo: ['artist'] } },
    freelancer: { accessGroups: { demo: ['freelancer'] } },
    outsider: { accessGroups: { elsewhere: ['artist'] } },
  };
  for (const [name, data] of Object.entries(people)) {
    await core.db
      .transaction()
      .execute(() => users.create({ name, password: 'a long probe password', data }));
    tokens[name as Caller] = (
      await core.request('POST', '/api/auth/login', { body: { name, password: 'a long probe password' } })
    ).body.token;
  }
  await core.db
    .transaction()
    .execute(() => users.create({ name: 'probe', password: 'a long probe password' }));
  expect(
    (
      await core.request('POST', '/api/projects', {
        token: tokens.admin,
        body: { name: 'demo', code: 'demo' },
      })
    ).status,
  ).toBe(201);
  // One of each entity, in a folder whose task the artist and the freelancer are assigned to.
  const make = async (url: string, body: unknown) => {
    const res = await core.request('POST', url, { token: tokens.admin, body });
    if (res.status !== 201 && res.status !== 200) throw new Error(`${url}: ${res.status} ${res.text}`);
    return res.body.id as string;
  };
  const P = '/api/projects/demo';
  fixtures.folder_id = await make(`${P}/folders`, { name: 'probe_folder', folderType: 'Folder' });
  fixtures.task_id = await make(`${P}/tasks`, {
    name: 'probe_task',
    folderId: fixtures.folder_id,
    assignees: ['artist', 'freelancer'],
  });
  fixtures.product_id = await make(`${P}/products`, {
    name: 'probeMain',
    productType: 'model',
    folderId: fixtures.folder_id,
  });
  fixtures.version_id = await make(`${P}/versions`, {
    version: 1,
    productId: fixtures.product_id,
    taskId: fixtures.task_id,
  });
  fixtures.representation_id = await make(`${P}/representations`, {
    name: 'abc',
    versionId: fixtures.version_id,
  });
  fixtures.workfile_id = await make(`${P}/workfiles`, {
    path: 'probe/work/probe_v001.ma',
    taskId: fixtures.task_id,
  });
  expect(
    (await core.request('PUT', `${P}/links/types/probe|folder|folder`, { token: tokens.admin, body: {} }))
      .status,
  ).toBe(204);
  const other = await make(`${P}/folders`, {
    name: 'probe_other',
    folderType: 'Folder',
    parentId: fixtures.folder_id,
  });
  // Both ends of the link are folders the freelancer may read (each holds one of their tasks).
  await make(`${P}/tasks`, { name: 'probe_task', folderId: other, assignees: ['artist', 'freelancer'] });
  fixtures.link_id = await make(`${P}/links`, {
    input: fixtures.folder_id,
    output: other,
    linkType: 'probe|folder|folder',
  });
  // A project's webhook (managers may read it) with one message in its log; the target does not resolve here.
  fixtures.webhook_id = await make('/api/webhooks', {
    name: 'probe',
    url: 'https://hooks.example.invalid/probe',
    projectName: 'demo',
    topics: ['webhook.ping'],
  });
  fixtures.delivery_id = (
    await core.request('POST', `/api/webhooks/${fixtures.webhook_id}/ping`, { token: tokens.admin })
  ).body.id;
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  );
  const thumbnail = await core.request('POST', `${P}/thumbnails`, {
    token: tokens.admin,
    body: png,
    headers: { 'content-type': 'image/png' },
  });
  fixtures.thumbnail_id = thumbnail.body.id;
  // A reviewable of the probe version to draw annotations on, made as the reviewables addon makes one (an upload
  // would give the version, and so its folder, a thumbnail). Not named as a path parameter: the annotation routes'
  // scenarios name it.
  fixtures.reviewable = await core.services
    .get(activitiesRef)
    .create('demo', 'version', fixtures.version_id, {
      type: 'reviewable',
      author: 'admin',
      body: "Uploaded a reviewable 'probe'",
    });
  // A production bundle (switching nothing off), so the settings of "production" resolve.
  expect(
    (
      await core.request('POST', '/api/bundles', {
        token: tokens.admin,
        body: { name: 'probe_prod', isProduction: true },
      })
    ).status,
  ).toBe(201);
  fixtures.filename = 'probe-installer.exe';
  expect(
    (
      await core.request('POST', '/api/desktop/installers', {
        token: tokens.admin,
        body: { filename: 'probe-installer.exe', version: '1.0.0', platform: 'windows' },
      })
    ).status,
  ).toBe(201);
  const file = pngFile('probe.png');
  fixtures.file_id = (
    await core.request('POST', `${P}/files`, { token: tokens.admin, body: file.body, headers: file.headers })
  ).body.id;
  fixtures.entity_list_id = await make(`${P}/lists`, {
    entityType: 'folder',
    label: 'probe_list',
    access: { __everyone__: 10 },
    items: [{ entityId: fixtures.folder_id }],
  });
  // Activities and watchers of the probe task, which the artist and the freelancer are assigned to.
  fixtures.entity_type = 'tasks';
  fixtures.entity_id = fixtures.task_id;
  fixtures.view_type = 'overview';
  fixtures.view_id = await make('/api/views/overview', {
    label: 'probe',
    working: false,
    visibility: 'public',
    settings: {},
  });
  fixtures.event_id = (
    await core.request('POST', '/api/events', { token: tokens.admin, body: { topic: 'probe.event' } })
  ).body.id;
  expect(
    (await core.request('PUT', '/api/secrets/probe', { token: tokens.admin, body: { value: 'hidden' } }))
      .status,
  ).toBe(204);

  const doc = (await core.request('GET', '/openapi.json')).body;
  routes = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, operation]) => ({
      method: method.toUpperCase(),
      path,
      operation,
    })),
  );
  // Reads first, while the fixtures are as made; deleting the project and the probe user last.
  const order = (r: { method: string; path: string }) =>
    r.method === 'GET'
      ? 0
      : r.method === 'DELETE' && ['/api/projects/{project_name}', '/api/users/{user_name}'].includes(r.path)
        ? 2
        : 1;
  routes.sort((a, b) => order(a) - order(b));
}, 60_000);
afterAll(() => core?.close());

describe('permission matrix', () => {
  it('has a rule for every route the server serves', () => {
    const unlisted = routes
      .map((r) => `${r.method} ${r.path}`)
      .filter((key) => !(key in RULES) && !SKIPPED.has(key));
    expect(unlisted).toEqual([]);
    const stale = Object.keys(RULES).filter((key) => !routes.some((r) => `${r.method} ${r.path}` === key));
    expect(stale).toEqual([]);
    // Every write has a valid request (or a stated reason it cannot succeed here).
    const untried = routes
      .map((r) => `${r.method} ${r.path}`)
      .filter(
        (key) =>
          !key.startsWith('GET ') && !SKIPPED.has(key) && !WRITES[key] && !(key in WRITES_WITHOUT_SUCCESS),
      );
    expect(untried).toEqual([]);
  });

  it('serves every route of AYON 1.11 that the specs name, with its method, in /openapi.json', () => {
    // fixtures/ayon-seed-routes.tsv: the routes marked in_seed=yes in the AYON route table (method, path, area).
    // Parameter names may differ from AYON's ({id} for {folder_id}), so paths are compared with them blanked.
    const blank = (path: string) => path.replace(/\{[^}]+\}/g, '{}');
    const served = new Set(routes.map((r) => `${r.method} ${blank(r.path)}`));
    const seed = readFileSync(new URL('./fixtures/ayon-seed-routes.tsv', import.meta.url), 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((row) => row.split('\t'));
    expect(seed.length).toBeGreaterThan(250);
    const missing = seed
      .filter(([method, path]) => !served.has(`${method} ${blank(path)}`))
      .map(([method, path, area]) => `${area}: ${method} ${path}`);
    expect(missing).toEqual([]);
  });

  // Before the matrix: its probes change the demo project (a project bundle that does not exist, ...).
  it('applies the rule a project or site named in the query calls for', async () => {
    const wrong: string[] = [];
    for (const { key, query, rule, body, status } of QUERY_VARIANTS) {
      expect(routes.some((r) => `${r.method} ${r.path}` === key)).toBe(true);
      const [method, path] = key.split(' ') as [string, string];
      const url = `${fillPath(path, 'demo', method)}?${new URLSearchParams(query)}`;
      for (const caller of CALLERS) {
        const res = await core.request(method, url, { token: tokens[caller], body });
        const expected = admitted[rule].includes(caller) ? status : caller === 'anonymous' ? 401 : 403;
        if (res.status !== expected)
          wrong.push(
            `${key}?${new URLSearchParams(query)} as ${caller}: ${res.status} (expected ${expected})`,
          );
      }
    }
    expect(wrong).toEqual([]);
  });

  it('refuses exactly the callers each rule refuses and answers admitted ones with the exact status', async () => {
    const wrong: string[] = [];
    for (const { method, path, operation } of routes) {
      const key = `${method} ${path}`;
      if (SKIPPED.has(key) || !(key in RULES)) continue;
      const rule = RULES[key];
      const body = operation.requestBody?.content?.['application/json']?.schema;
      const query = Object.fromEntries(
        (operation.parameters ?? [])
          .filter((p: any) => p.in === 'query' && p.required)
          .map((p: any) => [p.name, String(sample(p.schema))]),
      );
      // Success as the route documents it: the lowest 2xx of its responses.
      const documented = Math.min(
        ...Object.keys(operation.responses ?? { 200: {} })
          .map(Number)
          .filter((code) => code >= 200 && code < 300),
      );
      for (const caller of CALLERS) {
        const write = WRITES[key] ? await WRITES[key](caller, { core, tokens, fixtures }) : null;
        const url =
          fillPath(path, 'demo', method, write?.path) +
          (Object.keys(query).length ? `?${new URLSearchParams(query)}` : '');
        // Anonymous callers are refused before their input is read: they send a body that is not valid.
        const payload =
          caller === 'anonymous' && RULES[key] !== 'public' && body
            ? { 'not a field': true }
            : write
              ? write.body
              : (BODIES[key] ?? (body ? sample(body) : undefined));
        const res = await core.request(method, url, {
          token: tokens[caller],
          body: payload,
          headers: write?.headers,
        });
        // Admitted callers get exactly what the route answers on success (or the documented exception).
        const admittedStatus =
          method === 'GET'
            ? (NOT_200[key] ?? 200)
            : write
              ? (write.status ?? (Number.isFinite(documented) ? documented : 200))
              : WRITES_WITHOUT_SUCCESS[key];
        const expected = admitted[rule].includes(caller)
          ? admittedStatus
          : caller === 'anonymous'
            ? 401
            : 403;
        const ok = res.status === expected;
        if (!ok)
          wrong.push(`${key} as ${caller}: ${res.status} (expected ${expected}) ${res.text.slice(0, 120)}`);
      }
    }
    expect(wrong).toEqual([]);
  }, 300_000);
});
