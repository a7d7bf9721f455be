import { createHash } from 'node:crypto';
import { isManagerOrAbove, isoTime, type RequestUser, type UserRecord } from '@pipewright/sdk';
import type { GraphContext } from './context.js';

/**
 * What a UserNode resolves from: a stored user (users, user, me, and the authors of activities, which the
 * activities addon passes on as they are), or a stand-in for a name that no user holds any more (deleted).
 */
export interface UserNodeSource extends UserRecord {
  apiKeyPreview?: string | null;
  deleted?: boolean;
}

const ADJECTIVES = [
  'amber',
  'brave',
  'calm',
  'dusty',
  'eager',
  'fancy',
  'gentle',
  'hollow',
  'icy',
  'jolly',
  'keen',
  'lucky',
  'misty',
  'noble',
  'odd',
  'proud',
];
const NOUNS = [
  'otter',
  'falcon',
  'cedar',
  'pebble',
  'comet',
  'meadow',
  'lantern',
  'harbor',
  'willow',
  'badger',
  'ember',
  'canyon',
  'heron',
  'maple',
  'quartz',
  'raven',
];

/** The same made-up name for the same person every time, so guests can follow a thread without learning who. */
function nickname(name: string): string {
  const hash = createHash('sha256').update(name).digest();
  return `${ADJECTIVES[hash[0] % ADJECTIVES.length]}-${NOUNS[hash[1] % NOUNS.length]}`;
}

const obscure = (text: string) => text.replace(/[^ ]/g, '*');

/** A name as the caller may see it: guests see others under a nickname (AYON keeps "admin" as it is). */
export function visibleName(name: string, caller: RequestUser): string {
  return caller.isGuest && name !== caller.name && name !== 'admin' ? nickname(name) : name;
}

interface UserView {
  name: string;
  attrib: Record<string, unknown>;
}

// Guests see other people (except those they invited) without name, e-mail or picture.
function view(user: UserNodeSource, caller: RequestUser): UserView {
  if (!caller.isGuest || user.name === caller.name || user.data.createdBy === caller.name)
    return { name: user.name, attrib: user.attrib };
  const name = visibleName(user.name, caller);
  const attrib: Record<string, unknown> = { ...user.attrib, avatarUrl: null };
  if (typeof attrib.email === 'string' && attrib.email) attrib.email = obscure(attrib.email);
  if (attrib.fullName) attrib.fullName = name;
  return { name, attrib };
}

// Beyond who someone is, a normal user sees of others only what concerns them: the access groups others hold in the
// projects the caller works in too, and no part of anyone else's API key.
const seesAllOf = (user: UserNodeSource, caller: RequestUser) =>
  user.name === caller.name || isManagerOrAbove(caller);

function visibleAccessGroups(user: UserNodeSource, caller: RequestUser): Record<string, unknown> {
  const groups = user.data.accessGroups;
  if (typeof groups !== 'object' || groups === null || Array.isArray(groups)) return {};
  if (seesAllOf(user, caller)) return groups as Record<string, unknown>;
  const shared = new Set(
    Object.entries(caller.accessGroups)
      .filter(([, held]) => held.length > 0)
      .map(([project]) => project.toLowerCase()),
  );
  return Object.fromEntries(Object.entries(groups).filter(([project]) => shared.has(project.toLowerCase())));
}

const flag = (user: UserNodeSource, key: string) => user.data[key] === true;
const text = (value: unknown) => (typeof value === 'string' ? value : null);
/** The UserNode field resolvers, over any UserNodeSource. */
export const userNodeResolvers = {
  name: (user: UserNodeSource, _: unknown, ctx: GraphContext) => view(user, ctx.caller).name,
  active: (user: UserNodeSource) => user.active,
  createdAt: (user: UserNodeSource) => isoTime(user.createdAt),
  updatedAt: (user: UserNodeSource) => isoTime(user.updatedAt),
  accessGroups: (user: UserNodeSource, _: unknown, ctx: GraphContext) =>
    JSON.stringify(visibleAccessGroups(user, ctx.caller)),
  defaultAccessGroups: (user: UserNodeSource) =>
    Array.isArray(user.data.defaultAccessGroups) ? user.data.defaultAccessGroups : [],
  isAdmin: (user: UserNodeSource) => flag(user, 'isAdmin'),
  isManager: (user: UserNodeSource) => flag(user, 'isManager'),
  isService: (user: UserNodeSource) => flag(user, 'isService'),
  isGuest: (user: UserNodeSource) => flag(user, 'isGuest'),
  isDeveloper: (user: UserNodeSource) => flag(user, 'isDeveloper'),
  isExternal: (user: UserNodeSource) => flag(user, 'isExternal'),
  hasPassword: (user: UserNodeSource) => user.hasPassword,
  disablePasswordLogin: (user: UserNodeSource) => flag(user, 'disablePasswordLogin'),
  userPool: (user: UserNodeSource) => text(user.data.userPool),
  apiKeyPreview: (user: UserNodeSource, _: unknown, ctx: GraphContext) =>
    seesAllOf(user, ctx.caller) ? (user.apiKeyPreview ?? text(user.data.apiKeyPreview)) : null,
  deleted: (user: UserNodeSource) => user.deleted === true,
  attrib: (user: UserNodeSource, _: unknown, ctx: GraphContext) => view(user, ctx.caller).attrib,
  allAttrib: (user: UserNodeSource, _: unknown, ctx: GraphContext) =>
    JSON.stringify(view(user, ctx.caller).attrib),
};
