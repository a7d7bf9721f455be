import {
  type AddonApp,
  Forbidden,
  isManagerOrAbove,
  NoContent,
  ProjectParams,
  type RequestUser,
  UserParams,
  ValidationFailed,
} from '@pipewright/sdk';
import type { ProjectDirectory } from '@pipewright/plugin-projects/api';
import { STUDIO } from './migrations.js';
import { completePermissions } from './permissions.js';
import {
  AccessGroupList,
  GroupParams,
  GroupsByName,
  JsonSchemaDocument,
  LevelParams,
  PermissionsInput,
  PermissionsSchema,
  ProjectUserBody,
  ProjectUserParams,
  SetAccessBody,
  ShareOptions,
  UserAccessGroupsBody,
  UserPermissions,
  UserProjectParams,
} from './schemas.js';
import { pathProblems } from './problems.js';
import type { AccessService } from './service.js';
import { groupMapOf, sameName } from './user-groups.js';

export function accessRoutes(access: AccessService, projects: ProjectDirectory) {
  /** The level a path names: "_" for the studio, else the project's canonical name (404 when missing). */
  const writableLevel = async (projectName: string) =>
    projectName === STUDIO ? STUDIO : (await access.requireProjects([projectName]))[0];

  /** The same for reading: a normal user reads a project's groups only in a project they can reach. */
  const readableLevel = async (caller: RequestUser, projectName: string) =>
    projectName === STUDIO ? STUDIO : (await projects.require(caller, projectName)).name;

  /** Managers, or a user whose groups give at least this project access level (1 read, 2 write). */
  const requireProjectAccess = async (caller: RequestUser, projectName: string, level: number) => {
    if (isManagerOrAbove(caller)) return;
    if ((await access.permissions(caller, projectName)).project.access < level) {
      throw new Forbidden(`Managing the users of ${projectName} needs project access level ${level}`);
    }
  };

  /** Managers see anyone's permissions, everyone else only their own. */
  const requireSelfOrManager = (caller: RequestUser, userName: string) => {
    if (!isManagerOrAbove(caller) && !sameName(caller.name, userName)) {
      throw new Forbidden("Only managers see other users' permissions");
    }
  };

  return async (app: AddonApp) => {
    app.get(
      '/api/accessGroups/_schema',
      {
        schema: {
          tags: ['Access'],
          summary: "JSON schema of an access group's permissions",
          response: { 200: JsonSchemaDocument },
        },
      },
      async () => PermissionsSchema as unknown as Record<string, unknown>,
    );

    app.get(
      '/api/accessGroups/:project_name',
      {
        schema: {
          tags: ['Access'],
          summary:
            'Access groups usable at a level ("_" for the studio), marking those the project redefines',
          params: LevelParams,
          response: { 200: AccessGroupList },
        },
      },
      async (request) => access.listGroups(await readableLevel(request.caller, request.params.project_name)),
    );

    app.get(
      '/api/accessGroups/:access_group_name/:project_name',
      {
        schema: {
          tags: ['Access'],
          summary:
            "An access group's permissions at a level: the project's own version if it has one, else the studio's",
          params: GroupParams,
          response: { 200: PermissionsSchema },
        },
      },
      async (request) => {
        const level = await readableLevel(request.caller, request.params.project_name);
        return access.getGroup(request.params.access_group_name, level);
      },
    );

    app.put(
      '/api/accessGroups/:access_group_name/:project_name',
      {
        config: { access: 'manager' },
        schema: {
          tags: ['Access'],
          summary:
            'Create or replace an access group at a level (managers); missing fields take their defaults',
          params: GroupParams,
          body: PermissionsInput,
          response: { 204: NoContent },
        },
      },
      async (request) => {
        const level = await writableLevel(request.params.project_name);
        const permissions = completePermissions(request.body);
        const problems = pathProblems(permissions, ['body']);
        if (problems.length) throw new ValidationFailed(problems);
        await access.saveGroup(request.params.access_group_name, level, permissions, request.caller.name);
      },
    );

    app.delete(
      '/api/accessGroups/:access_group_name/:project_name',
      {
        config: { access: 'manager' },
        schema: {
          tags: ['Access'],
          summary:
            "Delete an access group at a level (managers); a project's version falls back to the studio's",
          params: GroupParams,
          response: { 204: NoContent },
        },
      },
      async (request) => {
        const level = await writableLevel(request.params.project_name);
        await access.deleteGroup(request.params.access_group_name, level, request.caller.name);
      },
    );

    app.post(
      '/api/access',
      {
        config: { access: 'manager' },
        schema: {
          tags: ['Access'],
          summary:
            "Set users' access groups per project, {user: {project: [groups]}} (managers); [] takes a project away",
          description: 'Projects not named are left as they are; projects that do not exist are passed over.',
          body: SetAccessBody,
          response: { 204: NoContent },
        },
      },
      async (request) => {
        const changes = [];
        const problems = [];
        for (const [userName, perProject] of Object.entries(request.body)) {
          const user = await access.requireUser(userName);
          const projects = new Map<string, string[]>();
          for (const [named, groups] of Object.entries(perProject)) {
            // As AYON does, projects that do not exist are passed over; the others keep their own spelling.
            const project = await access.projectName(named);
            if (!project) continue;
            problems.push(...(await access.unknownGroups(groups, [project], ['body', userName, named])));
            projects.set(project, groups);
          }
          changes.push({ user, projects });
        }
        if (problems.length) throw new ValidationFailed(problems);
        await access.assign(changes, request.caller.name);
      },
    );

    app.patch(
      '/api/users/:user_name/accessGroups',
      {
        config: { access: 'manager' },
        schema: {
          tags: ['Users'],
          summary: "Set a user's access groups per project (managers); an empty list takes the project away",
          params: UserParams,
          body: UserAccessGroupsBody,
          response: { 204: NoContent },
        },
      },
      async (request) => {
        const user = await access.requireUser(request.params.user_name);
        const items = request.body.accessGroups;
        const canonical = await access.requireProjects(items.map((item) => item.project));
        const changes = new Map<string, string[]>();
        const problems = [];
        for (const [i, item] of items.entries()) {
          const project = canonical.find((name) => sameName(name, item.project))!;
          problems.push(
            ...(await access.unknownGroups(
              item.accessGroups,
              [project],
              ['body', 'accessGroups', i, 'accessGroups'],
            )),
          );
          // A project listed twice: the later entry wins, as it would when applied one by one.
          changes.set(project, item.accessGroups);
        }
        if (problems.length) throw new ValidationFailed(problems);
        await access.assign([{ user, projects: changes }], request.caller.name);
      },
    );

    app.get(
      '/api/projects/:project_name/users',
      {
        schema: {
          tags: ['Projects'],
          summary: 'The users holding access groups in a project, with those groups (project access level 1)',
          params: ProjectParams,
          response: { 200: GroupsByName },
        },
      },
      async (request) => {
        const project = await projects.requireFor(request);
        await requireProjectAccess(request.caller, project.name, 1);
        return access.projectUsers(project.name);
      },
    );

    app.patch(
      '/api/projects/:project_name/users/:user_name',
      {
        schema: {
          tags: ['Projects'],
          summary:
            "Set a user's access groups in a project (project access level 2); an empty list revokes access",
          params: ProjectUserParams,
          body: ProjectUserBody,
          response: { 200: GroupsByName },
        },
      },
      async (request) => {
        const project = await projects.requireFor(request);
        await requireProjectAccess(request.caller, project.name, 2);
        const user = await access.requireUser(request.params.user_name);
        // Whoever is not a manager manages others; changing one's own groups would be a way up.
        if (!isManagerOrAbove(request.caller) && sameName(user.name, request.caller.name)) {
          throw new Forbidden('Only managers change their own access groups');
        }
        const problems = await access.unknownGroups(request.body, [project.name], ['body']);
        if (problems.length) throw new ValidationFailed(problems);
        await access.assign(
          [{ user, projects: new Map([[project.name, request.body]]) }],
          request.caller.name,
        );
        return groupMapOf((await access.requireUser(user.name)).data.accessGroups);
      },
    );

    app.get(
      '/api/users/me/permissions',
      {
        schema: {
          tags: ['Users'],
          summary:
            "The caller's level, studio permissions and the permissions in each project they can reach",
          response: { 200: UserPermissions },
        },
      },
      async (request) => access.userPermissions(request.caller),
    );

    app.get(
      '/api/users/me/permissions/:project_name',
      {
        schema: {
          tags: ['Users'],
          summary: "The caller's combined permissions in a project",
          params: ProjectParams,
          response: { 200: PermissionsSchema },
        },
      },
      async (request) => {
        const project = await projects.requireFor(request);
        return access.permissions(request.caller, project.name);
      },
    );

    app.get(
      '/api/users/:user_name/permissions',
      {
        schema: {
          tags: ['Users'],
          summary:
            "A user's permissions outside any project, from their default access groups (managers, or the user)",
          description:
            'Managers and administrators may do everything. Per project: .../permissions/{project_name}.',
          params: UserParams,
          response: { 200: PermissionsSchema },
        },
      },
      async (request) => {
        requireSelfOrManager(request.caller, request.params.user_name);
        return access.defaultPermissionsOf(request.params.user_name);
      },
    );

    app.get(
      '/api/users/:user_name/permissions/:project_name',
      {
        schema: {
          tags: ['Users'],
          summary: "A user's combined permissions in a project (managers, or the user)",
          params: UserProjectParams,
          response: { 200: PermissionsSchema },
        },
      },
      async (request) => {
        requireSelfOrManager(request.caller, request.params.user_name);
        const [project] = await access.requireProjects([request.params.project_name]);
        return access.projectPermissionsOf(request.params.user_name, project);
      },
    );

    app.get(
      '/api/share',
      {
        schema: {
          tags: ['Access'],
          summary: 'Whom the caller may share with: the users they can see, and everyone',
          response: { 200: ShareOptions },
        },
      },
      async (request) => access.shareOptions(request.caller),
    );
  };
}
