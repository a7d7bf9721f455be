import { describe, expect, it } from '@jest/globals';
import {
  Forbidden,
  Unauthorized,
  defineAddon,
  mergePatch,
  newId,
  newOrderedId,
  requireAdmin,
  requireManager,
  requireUser,
  topicMatches,
  type RequestUser,
} from '../src/index.js';

const user = (flags: Partial<RequestUser> = {}): RequestUser => ({
  name: 'alice',
  isAdmin: false,
  isManager: false,
  isService: false,
  isGuest: false,
  accessGroups: {},
  sessionId: null,
  isApiKey: false,
  ...flags,
});

describe('defineAddon', () => {
  it('accepts a well-formed addon as it is', () => {
    const addon = { name: 'review-tools', version: '1.2.3-beta.1', title: 'Review tools' };
    expect(defineAddon(addon)).toBe(addon);
  });

  it('refuses names that cannot be URL segments and versions that are not semver', () => {
    expect(() => defineAddon({ name: 'Review Tools', version: '1.0.0', title: 'x' })).toThrow(/lowercase/);
    expect(() => defineAddon({ name: 'review', version: 'latest', title: 'x' })).toThrow(/not semver/);
  });
});

describe('topicMatches', () => {
  it('matches everything, prefixes and exact topics', () => {
    expect(topicMatches('*', 'entity.folder.created')).toBe(true);
    expect(topicMatches('entity.*', 'entity.folder.created')).toBe(true);
    expect(topicMatches('entity.folder*', 'entity.folder.created')).toBe(true);
    expect(topicMatches('entity.task.*', 'entity.folder.created')).toBe(false);
    expect(topicMatches('auth.login', 'auth.login')).toBe(true);
    expect(topicMatches('auth.login', 'auth.logout')).toBe(false);
  });
});

describe('newId', () => {
  it('makes distinct 32-character lowercase hex ids', () => {
    // More than one pool of random bytes, and each a version 4 UUID as PostgreSQL's uuid type reads it.
    const ids = new Set(Array.from({ length: 10_000 }, newId));
    expect(ids.size).toBe(10_000);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{12}4[0-9a-f]{3}[89ab][0-9a-f]{15}$/);
  });
});

describe('newOrderedId', () => {
  it('makes distinct version 7 UUIDs that sort by the millisecond they were made in', async () => {
    const before = Date.now();
    const first = Array.from({ length: 5_000 }, newOrderedId);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const later = newOrderedId();
    expect(new Set(first).size).toBe(5_000);
    for (const id of [...first, later]) expect(id).toMatch(/^[0-9a-f]{12}7[0-9a-f]{3}[89ab][0-9a-f]{15}$/);
    expect(parseInt(first[0].slice(0, 12), 16)).toBeGreaterThanOrEqual(before);
    for (const id of first) expect(later > id).toBe(true);
  });
});

describe('access guards', () => {
  it('answers 401 without a user', () => {
    expect(() => requireUser({ user: null })).toThrow(Unauthorized);
  });

  it('lets managers, admins and services pass the manager guard, not artists', () => {
    expect(() => requireManager({ user: user() })).toThrow(Forbidden);
    for (const flags of [{ isManager: true }, { isAdmin: true }, { isService: true }]) {
      expect(requireManager({ user: user(flags) }).name).toBe('alice');
    }
  });

  it('keeps managers out of admin-only routes', () => {
    expect(() => requireAdmin({ user: user({ isManager: true }) })).toThrow(Forbidden);
    expect(requireAdmin({ user: user({ isAdmin: true }) }).isAdmin).toBe(true);
  });
});

describe('mergePatch', () => {
  it('merges objects deeply, removes keys set to null and replaces lists and scalars', () => {
    const base = { fps: 25, tools: ['nuke'], review: { codec: 'h264', burnin: { frame: true, user: true } } };
    const patch = { fps: null, tools: ['houdini'], review: { burnin: { user: null }, size: 1080 } };
    expect(mergePatch(base, patch)).toEqual({
      tools: ['houdini'],
      review: { codec: 'h264', burnin: { frame: true }, size: 1080 },
    });
    expect(base.review.burnin).toEqual({ frame: true, user: true });
  });
});
