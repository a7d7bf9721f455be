import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from '@jest/globals';
import { importAddon } from '../src/index.js';

// An addon built against the sdk before service references declared dependsOn and called ctx.use: set up here, it
// would get none of its services and fail somewhere in its setup. It is refused on import, saying what to change.
const dir = await mkdtemp(join(tmpdir(), 'legacy-addon-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

it('refuses an addon that declares dependsOn, saying to name service references in deps', async () => {
  await writeFile(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'old-notes', type: 'module', main: 'index.js' }),
  );
  await writeFile(
    join(dir, 'index.js'),
    "export default { name: 'old-notes', version: '1.0.0', title: 'Old notes', dependsOn: ['settings'] };\n",
  );
  await expect(importAddon(dir, false)).rejects.toThrow(
    /old-notes 1\.0\.0 declares dependsOn, which this server no longer reads: name the service references/,
  );
});
