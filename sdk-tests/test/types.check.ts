// Compile-time checks of the typed client, run by the root type check (never by Jest). Each @ts-expect-error
// line must fail to compile: if a regenerated schema stops rejecting the misuse, tsc reports the unused directive.
// The other lines pin answer and request types to their routes' schemas.
import type {
  CreateData,
  EntityType,
  LiveEvent,
  OperationResult,
  PipewrightClient,
  RequestBody,
  ResponseData,
  UpdateData,
} from '@pipewright/sdk/client';

/** True only when A and B are the same type (not merely assignable one way). */
type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
/** Compiles only when T is true; the values it is given count as used. */
function assertType<T extends true>(..._about: unknown[]): T | void {}

export async function misuseFailsToCompile(api: PipewrightClient): Promise<void> {
  // @ts-expect-error an unknown path
  await api.GET('/api/no/such/route');
  // @ts-expect-error a path that exists, but not for this method
  await api.PATCH('/api/auth/login', { body: { name: 'a', password: 'b' } });
  // @ts-expect-error a body field of the wrong type (code is a string)
  await api.POST('/api/projects', { body: { name: 'demo', code: 42 } });
  // @ts-expect-error a required body field missing (code)
  await api.POST('/api/projects', { body: { name: 'demo' } });
  await api.POST('/api/projects/{project_name}/operations', {
    params: { path: { project_name: 'demo' } },
    // @ts-expect-error an unknown body field where the schema allows no others
    body: { operations: [], canFail: true, atomic: true },
  });
  // @ts-expect-error the path parameter missing altogether
  await api.GET('/api/projects/{project_name}');
  // @ts-expect-error the path parameter under a wrong name
  await api.GET('/api/projects/{project_name}', { params: { path: { project: 'demo' } } });
  // @ts-expect-error a path parameter of the wrong type
  await api.GET('/api/projects/{project_name}', { params: { path: { project_name: 7 } } });
  const folderQuery = { path: { project_name: 'demo' }, query: { attrib: 'yes' } };
  // @ts-expect-error a query parameter of the wrong type (attrib is a boolean)
  await api.GET('/api/projects/{project_name}/folders', { params: folderQuery });

  const batch = api.operations('demo');
  // @ts-expect-error an entity type the operations endpoint does not know
  batch.create('shot', { name: 'sh010' });
  // @ts-expect-error a folder's name must be a string
  batch.create('folder', { name: 10 });
  // @ts-expect-error folder fields do not fit a task update (folderType)
  batch.update('task', 'f'.repeat(32), { folderType: 'Shot' });
}

export async function answersHaveTheirSchemaTypes(api: PipewrightClient): Promise<void> {
  const project = await api.GET('/api/projects/{project_name}', {
    params: { path: { project_name: 'demo' } },
  });
  assertType<Equals<typeof project.name, string>>();
  assertType<Equals<typeof project.library, boolean>>();
  // @ts-expect-error the answer has no such field
  void project.nonexistent;

  const folders = await api.GET('/api/projects/{project_name}/folders', {
    params: { path: { project_name: 'demo' } },
  });
  assertType<Equals<(typeof folders.folders)[number]['parentId'], string | null>>(folders);
  assertType<Equals<(typeof folders.folders)[number]['taskNames'], string[]>>();

  const login = await api.login('admin', 'secret');
  assertType<Equals<typeof login.token, string>>(login);

  // Defaults the server fills in (attrib, canFail) may be left out of requests.
  await api.GET('/api/projects/{project_name}/folders', { params: { path: { project_name: 'demo' } } });
  const ops: RequestBody<'post', '/api/projects/{project_name}/operations'> = { operations: [] };
  void ops;

  // parseAs changes what the call resolves to.
  const text = await api.GET('/api/info', { parseAs: 'text' });
  assertType<Equals<typeof text, string>>(text);

  // A 204 route resolves to nothing to read.
  const patched = await api.PATCH('/api/projects/{project_name}/folders/{folder_id}', {
    params: { path: { project_name: 'demo', folder_id: 'f'.repeat(32) } },
    body: { label: 'Sequence 10' },
  });
  assertType<Equals<typeof patched, undefined>>(patched);

  assertType<Equals<ResponseData<'get', '/api/users/me'>['name'], string>>();
  assertType<Equals<EntityType, 'folder' | 'task' | 'product' | 'version' | 'representation' | 'workfile'>>();
  assertType<Equals<CreateData<'folder'>['name'], string>>();
  assertType<Equals<UpdateData<'task'>['name'], string | undefined>>();
  assertType<Equals<OperationResult['success'], boolean>>();
  assertType<Equals<OperationResult['errorCode'], string | null>>();
  assertType<Equals<LiveEvent['summary'], Record<string, unknown>>>();
}
