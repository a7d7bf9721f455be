import type { PipewrightClient, ResponseData } from '@pipewright/sdk/client';
import type { ScreenUser } from '@pipewright/sdk/screen';

// The server routes this screen uses (users, access and teams addons), through the session's typed client.

export interface UserRecord {
  name: string;
  active: boolean;
  attrib: { fullName?: string; email?: string; [key: string]: unknown };
  data: {
    isAdmin?: boolean;
    isManager?: boolean;
    isService?: boolean;
    isGuest?: boolean;
    accessGroups?: Record<string, string[]>;
    defaultAccessGroups?: string[];
    [key: string]: unknown;
  };
  hasPassword: boolean;
  createdAt: string;
}

export type Role = 'user' | 'manager' | 'admin' | 'service' | 'guest';

export const ROLE_LABELS: Record<Role, string> = {
  user: 'User',
  manager: 'Manager',
  admin: 'Administrator',
  service: 'Service',
  guest: 'Guest',
};

export function roleOf(user: UserRecord): Role {
  if (user.data.isAdmin) return 'admin';
  if (user.data.isService) return 'service';
  if (user.data.isManager) return 'manager';
  if (user.data.isGuest) return 'guest';
  return 'user';
}

/** The roles a caller may hand out: administrators all of them, managers the others. */
export function grantableRoles(caller: ScreenUser): Role[] {
  return caller.isAdmin ? ['user', 'manager', 'admin', 'service', 'guest'] : ['user', 'manager', 'guest'];
}

/**
 * The role flags to send for a new role. Only administrators may send isAdmin or isService at all (even false),
 * so a manager's change leaves them out.
 */
export function roleFlags(role: Role, callerIsAdmin: boolean): Record<string, boolean> {
  const flags: Record<string, boolean> = { isManager: role === 'manager', isGuest: role === 'guest' };
  if (callerIsAdmin) Object.assign(flags, { isAdmin: role === 'admin', isService: role === 'service' });
  return flags;
}

const userPath = (name: string) => ({ params: { path: { user_name: name } } });

/** Every user, with the role flags and access groups the screen reads from `data`. */
export const listUsers = (client: PipewrightClient) =>
  client.GET('/api/users').then((answer) => answer.users as UserRecord[]);

/** Create a user (PUT on a new name). */
export const createUser = (
  client: PipewrightClient,
  name: string,
  body: { attrib?: Record<string, unknown>; data?: Record<string, unknown>; password?: string },
) => client.PUT('/api/users/{user_name}', { ...userPath(name), body });

export const patchUser = (
  client: PipewrightClient,
  name: string,
  body: { active?: boolean; attrib?: Record<string, unknown>; data?: Record<string, unknown> },
) => client.PATCH('/api/users/{user_name}', { ...userPath(name), body });

/** Set a password; your own takes your current one too (an administrator sets others' without it). */
export const setPassword = (
  client: PipewrightClient,
  name: string,
  password: string,
  currentPassword?: string,
) =>
  client.PATCH('/api/users/{user_name}/password', {
    ...userPath(name),
    body: currentPassword === undefined ? { password } : { password, currentPassword },
  });

/** Set the user's groups in the projects listed; an empty list takes a project away. */
export const setAccessGroups = (
  client: PipewrightClient,
  name: string,
  perProject: Record<string, string[]>,
) =>
  client.PATCH('/api/users/{user_name}/accessGroups', {
    ...userPath(name),
    body: {
      accessGroups: Object.entries(perProject).map(([project, accessGroups]) => ({ project, accessGroups })),
    },
  });

export const listProjects = (client: PipewrightClient) =>
  client.GET('/api/projects').then((answer) => answer.projects);

// Access groups: "_" is the studio level.

const groupPath = (name: string) => ({ params: { path: { access_group_name: name, project_name: '_' } } });

export const listAccessGroups = (client: PipewrightClient) =>
  client.GET('/api/accessGroups/{project_name}', { params: { path: { project_name: '_' } } });

export const readAccessGroup = (client: PipewrightClient, name: string) =>
  client.GET('/api/accessGroups/{access_group_name}/{project_name}', groupPath(name));

export const saveAccessGroup = (client: PipewrightClient, name: string, permissions: Permissions) =>
  client.PUT('/api/accessGroups/{access_group_name}/{project_name}', {
    ...groupPath(name),
    body: permissions,
  });

/** A new group starts with nothing restricted and no management rights: the server fills in the defaults. */
export const createAccessGroup = (client: PipewrightClient, name: string) =>
  client.PUT('/api/accessGroups/{access_group_name}/{project_name}', { ...groupPath(name), body: {} });

export const deleteAccessGroup = (client: PipewrightClient, name: string) =>
  client.DELETE('/api/accessGroups/{access_group_name}/{project_name}', groupPath(name));

/** An access group's permissions, with AYON's snake_case keys. */
export type Permissions = ResponseData<'get', '/api/accessGroups/{access_group_name}/{project_name}'>;
export type FolderWhitelist = Permissions['read'];
export type FolderAccessType = FolderWhitelist['access_list'][number]['access_type'];

// Teams live in projects.

export type Team = ResponseData<'get', '/api/projects/{project_name}/teams'>[number];
export type TeamMember = Team['leaders'][number];

const teamPath = (project: string, team: string) => ({
  params: { path: { project_name: project, team_name: team } },
});
const memberPath = (project: string, team: string, member: string) => ({
  params: { path: { project_name: project, team_name: team, member_name: member } },
});

export const listTeams = (client: PipewrightClient, project: string) =>
  client.GET('/api/projects/{project_name}/teams', {
    params: { path: { project_name: project }, query: { show_members: true } },
  });

export const saveTeam = (client: PipewrightClient, project: string, team: string, members: TeamMember[]) =>
  client.PUT('/api/projects/{project_name}/teams/{team_name}', {
    ...teamPath(project, team),
    body: { members },
  });

export const deleteTeam = (client: PipewrightClient, project: string, team: string) =>
  client.DELETE('/api/projects/{project_name}/teams/{team_name}', teamPath(project, team));

export const saveMember = (
  client: PipewrightClient,
  project: string,
  team: string,
  member: string,
  change: { leader?: boolean; roles?: string[] },
) =>
  client.PUT('/api/projects/{project_name}/teams/{team_name}/members/{member_name}', {
    ...memberPath(project, team, member),
    body: change,
  });

export const removeMember = (client: PipewrightClient, project: string, team: string, member: string) =>
  client.DELETE(
    '/api/projects/{project_name}/teams/{team_name}/members/{member_name}',
    memberPath(project, team, member),
  );

// API keys of (service) users.

export type ApiKey = ResponseData<'get', '/api/users/{user_name}/apikeys'>[number];

export const listApiKeys = (client: PipewrightClient, user: string) =>
  client.GET('/api/users/{user_name}/apikeys', userPath(user));

export const createApiKey = (client: PipewrightClient, user: string, label: string, expires: string | null) =>
  client.POST('/api/users/{user_name}/apikeys', {
    ...userPath(user),
    body: { label, ...(expires ? { expires } : {}) },
  });

export const revokeApiKey = (client: PipewrightClient, user: string, id: string) =>
  client.DELETE('/api/users/{user_name}/apikeys/{entity_id}', {
    params: { path: { user_name: user, entity_id: id } },
  });
