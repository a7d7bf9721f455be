import { Type, defineAddon } from '@pipewright/sdk';

// Addons with settings for the settings tests.

/** Studio/project settings of the demo addon: scalars, a list, nested objects, a list of objects, a dictionary. */
export const demoSettings = (fpsDefault: number) =>
  Type.Object({
    enabled: Type.Boolean({ default: true }),
    fps: Type.Number({ default: fpsDefault, minimum: 1 }),
    label: Type.String({ default: 'studio' }),
    tags: Type.Array(Type.String(), { default: ['a', 'b'] }),
    render: Type.Object({
      engine: Type.String({ default: 'arnold' }),
      samples: Type.Integer({ default: 4, minimum: 1 }),
      output: Type.Object({
        format: Type.String({ default: 'exr' }),
        depth: Type.Integer({ default: 16 }),
      }),
    }),
    profiles: Type.Array(Type.Object({ name: Type.String(), level: Type.Integer({ default: 1 }) }), {
      default: [{ name: 'default', level: 1 }],
    }),
    paths: Type.Record(Type.String(), Type.String(), { default: { work: '/work' } }),
    // A default written on the object wins over its properties' defaults.
    limits: Type.Object(
      { low: Type.Integer({ default: 1 }), high: Type.Integer({ default: 2 }) },
      { default: { high: 3 } },
    ),
    siteRoot: Type.String({ default: '/mnt', scope: ['studio', 'project', 'site'] }),
  });

export const demoSiteSettings = Type.Object({
  cacheDir: Type.String({ default: '/tmp/cache' }),
  threads: Type.Integer({ default: 2, minimum: 1 }),
});

export const DEMO_DEFAULTS = {
  enabled: true,
  fps: 25,
  label: 'studio',
  tags: ['a', 'b'],
  render: { engine: 'arnold', samples: 4, output: { format: 'exr', depth: 16 } },
  profiles: [{ name: 'default', level: 1 }],
  paths: { work: '/work' },
  limits: { low: 1, high: 3 },
  siteRoot: '/mnt',
};

export const demoV1 = defineAddon({
  name: 'demo',
  version: '1.0.0',
  title: 'Demo Addon',
  settings: { studio: demoSettings(25), site: demoSiteSettings },
});

// The next version changes a default: settings migrated to it keep what the studio chose.
export const demoV2 = defineAddon({
  name: 'demo',
  version: '2.0.0',
  title: 'Demo Addon',
  settings: { studio: demoSettings(24), site: demoSiteSettings },
});

export const plain = defineAddon({ name: 'plain', version: '1.0.0', title: 'Plain (no settings)' });
