import { describe, expect, it } from '@jest/globals';
import { orderByDependencies, withDependencies } from '../src/addons/order.js';

const addon = (name: string, dependsOn: string[] = []) => ({ name, dependsOn });

describe('addon ordering', () => {
  it('puts every addon after the addons it depends on', () => {
    const ordered = orderByDependencies([
      addon('onboarding', ['auth', 'users']),
      addon('auth', ['users']),
      addon('users'),
    ]);
    expect(ordered.map((a) => a.name)).toEqual(['users', 'auth', 'onboarding']);
  });

  it('refuses a missing dependency, naming both addons', () => {
    expect(() => orderByDependencies([addon('auth', ['users'])])).toThrow(
      'Addon "auth" depends on "users", which is not available or not enabled',
    );
  });

  it('refuses a cycle, naming the path', () => {
    expect(() => orderByDependencies([addon('a', ['b']), addon('b', ['c']), addon('c', ['a'])])).toThrow(
      'Addon dependency cycle: a -> b -> c -> a',
    );
  });

  it('selects an addon with its transitive dependencies only', () => {
    const all = [addon('onboarding', ['auth']), addon('auth', ['users']), addon('users'), addon('events')];
    expect(
      withDependencies(all, ['onboarding'])
        .map((a) => a.name)
        .sort(),
    ).toEqual(['auth', 'onboarding', 'users']);
  });
});
