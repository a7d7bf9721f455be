import type { ScreenUser } from '@pipewright/sdk/screen';
import type { Api } from './api';

// The server routes this screen uses (users, access and teams addons), with the shapes they answer.

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

export const listUsers = (api: Api) =>
  api.get<{ users: UserRecord[] }>('/api/users').then((answer) => answer.users);

export const createUser = (
  api: Api,
  name: string,
  body: { attrib?: Record<string, unknown>; data?: Record<string, unknown>; password?: string },
) => api.send<void>('PUT', `/api/users/${encodeURIComponent(name)}`, body);

export const patchUser = (
  api: Api,
  name: string,
  body: { active?: boolean; attrib?: Record<string, unknown>; data?: Record<string, unknown> },
) => api.send<void>('PATCH', `/api/users/${encodeURIComponent(name)}`, body);

export const setPassword = (api: Api, name: string, password: string) =>
  api.send<void>('PATCH', `/api/users/${encodeURIComponent(name)}/password`, { password });

/** Set the user's groups in the projects listed; an empty list takes a project away. */
export const setAccessGroups = (api: Api, name: string, perProject: Record<string, string[]>) =>
  api.send<void>('PATCH', `/api/users/${encodeURIComponent(name)}/accessGroups`, {
    accessGroups: Object.entries(perProject).map(([project, accessGroups]) => ({ project, accessGroups })),
  });

export const listProjects = (api: Api) =>
  api
    .get<{ projects: { name: string; code: string; active: boolean }[] }>('/api/projects')
    .then((answer) => answer.projects);

// Access groups: "_" is the studio level.

export const listAccessGroups = (api: Api) =>
  api.get<{ name: string; isProjectLevel: boolean }[]>('/api/accessGroups/_');

export const readAccessGroup = (api: Api, name: string) =>
  api.get<Permissions>(`/api/accessGroups/${encodeURIComponent(name)}/_`);

export const saveAccessGroup = (api: Api, name: string, permissions: Permissions) =>
  api.send<void>('PUT', `/api/accessGroups/${encodeURIComponent(name)}/_`, permissions);

/** A new group starts with nothing restricted and no management rights: the server fills in the defaults. */
export const createAccessGroup = (api: Api, name: string) =>
  api.send<void>('PUT', `/api/accessGroups/${encodeURIComponent(name)}/_`, {});

export const deleteAccessGroup = (api: Api, name: string) =>
  api.send<void>('DELETE', `/api/accessGroups/${encodeURIComponent(name)}/_`);

export type FolderAccessType = 'assigned' | 'hierarchy' | 'children';
export interface FolderWhitelist {
  enabled: boolean;
  access_list: { access_type: FolderAccessType; path?: string }[];
}

/** An access group's permissions, with AYON's snake_case keys. */
export interface Permissions {
  studio: { enabled: boolean; create_projects: boolean; list_all_users: boolean };
  project: { enabled: boolean; anatomy: number; access: number; settings: number };
  create: FolderWhitelist;
  read: FolderWhitelist;
  update: FolderWhitelist;
  publish: FolderWhitelist;
  delete: FolderWhitelist;
  attrib_read: { enabled: boolean; attributes: string[] };
  attrib_write: { enabled: boolean; attributes: string[]; fields: string[] };
  endpoints: { enabled: boolean; endpoints: string[] };
  links: { enabled: boolean; link_types: string[] };
  advanced: { show_sibling_tasks: boolean };
}

// Teams live in projects.

export interface TeamMember {
  name: string;
  leader: boolean;
  roles: string[];
}
export interface Team {
  name: string;
  memberCount: number;
  members?: TeamMember[];
  leaders: TeamMember[];
}

const teamsPath = (project: string) => `/api/projects/${encodeURIComponent(project)}/teams`;

export const listTeams = (api: Api, project: string) =>
  api.get<{ teams: Team[] }>(`${teamsPath(project)}?show_members=true`).then((answer) => answer.teams);

export const saveTeam = (api: Api, project: string, team: string, members: TeamMember[]) =>
  api.send<void>('PUT', `${teamsPath(project)}/${encodeURIComponent(team)}`, { members });

export const deleteTeam = (api: Api, project: string, team: string) =>
  api.send<void>('DELETE', `${teamsPath(project)}/${encodeURIComponent(team)}`);

export const saveMember = (
  api: Api,
  project: string,
  team: string,
  member: string,
  change: { leader?: boolean; roles?: string[] },
) =>
  api.send<void>(
    'PUT',
    `${teamsPath(project)}/${encodeURIComponent(team)}/members/${encodeURIComponent(member)}`,
    change,
  );

export const removeMember = (api: Api, project: string, team: string, member: string) =>
  api.send<void>(
    'DELETE',
    `${teamsPath(project)}/${encodeURIComponent(team)}/members/${encodeURIComponent(member)}`,
  );

// API keys of (service) users.

export interface ApiKey {
  id: string;
  label: string;
  preview: string;
  created: string;
  expires: string | null;
}

const keysPath = (user: string) => `/api/users/${encodeURIComponent(user)}/apikeys`;

export const listApiKeys = (api: Api, user: string) => api.get<ApiKey[]>(keysPath(user));

export const createApiKey = (api: Api, user: string, label: string, expires: string | null) =>
  api.send<{ id: string; key: string }>('POST', keysPath(user), { label, ...(expires ? { expires } : {}) });

export const revokeApiKey = (api: Api, user: string, id: string) =>
  api.send<void>('DELETE', `${keysPath(user)}/${id}`);
