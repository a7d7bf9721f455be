import {
  type AddonApp,
  type FolderAccessKind,
  type FolderScope as FolderScopeOf,
  ProjectParams,
  type RequestUser,
  Type,
} from '@pipewright/sdk';
import type { ProjectDirectory } from '@pipewright/plugin-projects/api';
import { FOLDER_KINDS } from './permissions.js';
import type { AccessService } from './service.js';
import { userLevel } from './user-groups.js';

// What the caller may do in one project, as the server itself decides it: the folder scopes the entities addon
// checks writes against (from the same AccessService.folderScope), so screens offer only what would be accepted.
// An addition of Pipewright's; AYON's /api/users/me/permissions/{project} keeps answering the raw permissions.

const FolderScope = Type.Union(
  [
    Type.Object({
      subtree: Type.Array(Type.String(), { description: 'The folders at these paths and all below them' }),
      below: Type.Array(Type.String(), { description: 'Only what is below these paths' }),
      assigned: Type.Boolean({ description: 'Also the folders holding a task assigned to the caller' }),
      ownTasksOnly: Type.Optional(Type.Boolean()),
    }),
    Type.Null(),
  ],
  { description: 'Where the caller may do this; null when nothing restricts it' },
);

export const ProjectAccess = Type.Object({
  userName: Type.String(),
  userLevel: Type.Union([Type.Literal('admin'), Type.Literal('manager'), Type.Literal('user')]),
  publishForOthers: Type.Boolean({
    description: 'Whether the caller may publish a version naming another author (administrators only)',
  }),
  folders: Type.Object({
    create: FolderScope,
    read: FolderScope,
    update: FolderScope,
    publish: FolderScope,
    delete: FolderScope,
  }),
});

export async function projectAccess(access: AccessService, caller: RequestUser, projectName: string) {
  const folders = {} as Record<FolderAccessKind, FolderScopeOf | null>;
  for (const kind of FOLDER_KINDS) folders[kind] = await access.folderScope(caller, projectName, kind);
  return {
    userName: caller.name,
    userLevel: userLevel(caller),
    // The entities addon takes a version's author from anyone else only from administrators and services.
    publishForOthers: caller.isAdmin || caller.isService,
    folders,
  };
}

export function projectAccessRoutes(access: AccessService, projects: ProjectDirectory) {
  return async (app: AddonApp) => {
    app.get(
      '/api/users/me/access/:project_name',
      {
        schema: {
          tags: ['Users'],
          summary: 'Where in a project the caller may create, read, update, publish and delete',
          description:
            'The folder scopes writes are checked against, read once per project by the web app so that it ' +
            'offers only what the server accepts.',
          params: ProjectParams,
          response: { 200: ProjectAccess },
        },
      },
      async (request) => {
        const project = await projects.requireFor(request);
        return projectAccess(access, request.caller, project.name);
      },
    );
  };
}
