import { describe, expect, it } from '@jest/globals';
import { pathInScope } from '@pipewright/sdk';
import { SEED_GROUPS } from '../src/migrations.js';
import {
  combinePermissions,
  completePermissions,
  noPermissions,
  unrestrictedPermissions,
  whitelistScope,
} from '../src/permissions.js';
import { pathProblems } from '../src/problems.js';
import { accessGroupsPatch, groupsInProject } from '../src/user-groups.js';

const restricted = (...access_list: { access_type: string; path?: string }[]) => ({
  enabled: true,
  access_list,
});

describe('completePermissions', () => {
  it('fills every section with its default and drops what it does not know', () => {
    const full = completePermissions({
      create: { enabled: true },
      activities: { enabled: true },
      project: { access: 9 },
    });
    expect(full).toEqual({
      studio: { enabled: false, create_projects: false, list_all_users: false },
      project: { enabled: false, anatomy: 0, access: 3, settings: 0 },
      create: { enabled: true, access_list: [] },
      read: { enabled: false, access_list: [] },
      update: { enabled: false, access_list: [] },
      publish: { enabled: false, access_list: [] },
      delete: { enabled: false, access_list: [] },
      attrib_read: { enabled: false, attributes: [] },
      attrib_write: { enabled: false, attributes: [], fields: [] },
      endpoints: { enabled: false, endpoints: [] },
      links: { enabled: false, link_types: [] },
      advanced: { show_sibling_tasks: true },
    });
  });

  it('seeds supervisor, artist and freelancer as the first run describes', () => {
    const { supervisor, artist, freelancer } = SEED_GROUPS;
    for (const kind of ['create', 'read', 'update', 'publish', 'delete'] as const)
      expect(supervisor[kind].enabled).toBe(false);
    expect(supervisor.project).toEqual({ enabled: true, anatomy: 1, access: 2, settings: 1 });
    expect(artist.create).toEqual(restricted({ access_type: 'assigned' }));
    expect(artist.delete).toEqual(restricted({ access_type: 'assigned' }));
    expect([artist.read.enabled, artist.update.enabled, artist.publish.enabled]).toEqual([
      false,
      false,
      false,
    ]);
    for (const kind of ['create', 'read', 'update', 'publish', 'delete'] as const) {
      expect(freelancer[kind]).toEqual(restricted({ access_type: 'assigned' }));
    }
    expect(freelancer.project).toEqual({ enabled: false, anatomy: 0, access: 0, settings: 0 });
    expect(freelancer.advanced.show_sibling_tasks).toBe(false);
    expect(artist.advanced.show_sibling_tasks).toBe(true);
    expect(artist.studio.create_projects).toBe(false);
  });
});

describe('combinePermissions', () => {
  it('is unrestricted where any group is, and joins the whitelists where all restrict', () => {
    const a = completePermissions({
      read: restricted({ access_type: 'hierarchy', path: 'assets' }),
      update: restricted({ access_type: 'assigned' }),
      attrib_read: { enabled: true, attributes: ['fps'] },
      attrib_write: { enabled: true, attributes: ['fps'], fields: ['status'] },
      links: { enabled: true, link_types: ['breakdown'] },
    });
    const b = completePermissions({
      read: restricted(
        { access_type: 'children', path: 'shots' },
        { access_type: 'hierarchy', path: 'assets' },
      ),
      update: { enabled: false },
      attrib_read: { enabled: true, attributes: ['fps', 'resolutionWidth'] },
      attrib_write: { enabled: true, attributes: [], fields: ['name'] },
      links: { enabled: false },
    });
    const both = combinePermissions([a, b]);
    expect(both.read).toEqual(
      restricted({ access_type: 'hierarchy', path: 'assets' }, { access_type: 'children', path: 'shots' }),
    );
    expect(both.update).toEqual({ enabled: false, access_list: [] });
    expect(both.create.enabled).toBe(false);
    expect(both.attrib_read).toEqual({ enabled: true, attributes: ['fps', 'resolutionWidth'] });
    expect(both.attrib_write).toEqual({ enabled: true, attributes: ['fps'], fields: ['status', 'name'] });
    expect(both.links).toEqual({ enabled: false, link_types: [] });
  });

  it('takes the highest level and ors the flags', () => {
    const a = completePermissions({ project: { anatomy: 2, access: 0 }, studio: { create_projects: true } });
    const b = completePermissions({
      project: { access: 1, settings: 1 },
      advanced: { show_sibling_tasks: false },
    });
    const c = completePermissions({ advanced: { show_sibling_tasks: false } });
    const all = combinePermissions([a, b, c]);
    expect(all.project).toMatchObject({ anatomy: 2, access: 1, settings: 1 });
    expect(all.studio).toMatchObject({ create_projects: true, list_all_users: false });
    expect(all.advanced.show_sibling_tasks).toBe(true);
    expect(combinePermissions([b, c]).advanced.show_sibling_tasks).toBe(false);
  });

  it('gives nothing without groups, and one group unchanged', () => {
    expect(combinePermissions([])).toEqual(noPermissions());
    expect(combinePermissions([SEED_GROUPS.artist])).toEqual(SEED_GROUPS.artist);
    const none = noPermissions();
    expect(whitelistScope(none.read)).toEqual({ subtree: [], below: [], assigned: false });
    expect(none.project).toMatchObject({ anatomy: 0, access: 0, settings: 0 });
  });

  it('gives managers everything', () => {
    const all = unrestrictedPermissions();
    expect(all.project).toEqual({ enabled: true, anatomy: 3, access: 3, settings: 3 });
    expect(all.studio).toEqual({ enabled: true, create_projects: true, list_all_users: true });
    expect(whitelistScope(all.delete)).toBeNull();
  });
});

describe('whitelistScope', () => {
  it('turns entries into subtree, below and assigned, with paths trimmed of slashes', () => {
    const scope = whitelistScope(
      restricted(
        { access_type: 'hierarchy', path: '/assets/trees/' },
        { access_type: 'children', path: 'shots/' },
        { access_type: 'assigned' },
        { access_type: 'hierarchy', path: 'assets/trees' },
      ),
    );
    expect(scope).toEqual({ subtree: ['assets/trees'], below: ['shots'], assigned: true });
    expect(pathInScope(scope!, 'assets/trees')).toBe(true);
    expect(pathInScope(scope!, 'assets/trees/oak')).toBe(true);
    expect(pathInScope(scope!, 'assets/treestump')).toBe(false);
    expect(pathInScope(scope!, 'shots')).toBe(false);
    expect(pathInScope(scope!, 'shots/sh010')).toBe(true);
    expect(whitelistScope({ enabled: false, access_list: [{ access_type: 'assigned' }] })).toBeNull();
  });

  it('lets an entry of a kind it does not know grant nothing, as AYON stores and passes it over', () => {
    const scope = whitelistScope(restricted({ access_type: 'everywhere', path: 'assets' }));
    expect(scope).toEqual({ subtree: [], below: [], assigned: false });
    expect(pathInScope(scope!, 'assets')).toBe(false);
    expect(
      pathProblems(completePermissions({ read: { enabled: true, access_list: [{ access_type: 'x' }] } }), []),
    ).toEqual([]);
  });
});

describe('user group maps', () => {
  it('match projects regardless of case', () => {
    expect(
      groupsInProject({ Show: ['artist'], show: ['supervisor', 'artist'], film: ['x'] }, 'SHOW'),
    ).toEqual(['artist', 'supervisor']);
    expect(groupsInProject({}, 'show')).toEqual([]);
  });

  it('patch under the canonical name, remove other spellings, and drop projects given no group', () => {
    const current = { Show: ['artist'], film: ['artist'] };
    expect(
      accessGroupsPatch(
        current,
        new Map([
          ['show', ['supervisor', 'supervisor']],
          ['film', []],
          ['other', []],
        ]),
      ),
    ).toEqual({ Show: null, show: ['supervisor'], film: null });
    expect(accessGroupsPatch({}, new Map([['other', []]]))).toBeNull();
  });
});
