import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import AdmZip from 'adm-zip';
import { bootTestCore, type TestCore } from '@pipewright/core/testing';
import { usersRef } from '@pipewright/plugin-users/api';

// The market only describes addons; installing one goes through the same path as any package: the version's url
// handed to POST /api/addons/install?url=. A web server on this machine stands in for the studio's package store.

const PASSWORD = 'a long test password';
let core: TestCore;
let files: Server;
let token: string;
let url: string;

function packageZip(): Buffer {
  const zip = new AdmZip();
  zip.addFile('manifest.json', Buffer.from(JSON.stringify({ name: 'frame-counter', version: '0.2.0' })));
  zip.addFile('package.json', Buffer.from(JSON.stringify({ type: 'module', exports: './index.js' })));
  zip.addFile(
    'index.js',
    Buffer.from(`export default { name: 'frame-counter', version: '0.2.0', title: 'Frame counter',
      setup(ctx) { ctx.app.get('/count', async () => ({ frames: 1001 })); } };`),
  );
  return zip.toBuffer();
}

beforeAll(async () => {
  const zip = packageZip();
  files = createServer((req, res) => {
    if (req.url === '/frame-counter-0.2.0.zip')
      res.writeHead(200, { 'content-type': 'application/zip' }).end(zip);
    else res.writeHead(404).end();
  });
  await new Promise<void>((done) => files.listen(0, '127.0.0.1', done));
  url = `http://127.0.0.1:${(files.address() as AddressInfo).port}/frame-counter-0.2.0.zip`;
  core = await bootTestCore({ addons: ['market', 'addons'] });
  const users = core.services.get(usersRef);
  await core.db
    .transaction()
    .execute(() => users.create({ name: 'root', password: PASSWORD, data: { isAdmin: true } }));
  token = (await core.request('POST', '/api/auth/login', { body: { name: 'root', password: PASSWORD } })).body
    .token;
  await mkdir(join(core.config.dataDir, 'market'), { recursive: true });
  await writeFile(
    join(core.config.dataDir, 'market', 'catalogue.json'),
    JSON.stringify({
      addons: [
        {
          name: 'frame-counter',
          title: 'Frame counter',
          description: 'Counts frames',
          orgName: 'studio',
          orgTitle: 'Studio',
          versions: [{ version: '0.2.0', ayonVersion: '>=1.0.0', url, createdAt: '2026-11-01T00:00:00Z' }],
        },
      ],
      releases: [],
    }),
  );
});
afterAll(async () => {
  await core?.close();
  await new Promise((done) => files.close(done));
});

describe('installing an addon found in the market', () => {
  it('uses the version url with POST /api/addons/install, after which the market lists it installed', async () => {
    const detail = await core.request('GET', '/api/market/addons/frame-counter/0.2.0', { token });
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({ url, isInstalled: false });

    const install = await core.request(
      'POST',
      `/api/addons/install?url=${encodeURIComponent(detail.body.url)}`,
      {
        token,
      },
    );
    expect(install.status).toBe(200);
    let event = await core.events.get(install.body.eventId);
    for (let i = 0; i < 200 && event?.status === 'in_progress'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      event = await core.events.get(install.body.eventId);
    }
    expect(event).toMatchObject({ topic: 'addon.install_from_url', status: 'finished' });

    const count = await core.request('GET', '/api/addons/frame-counter/0.2.0/count', { token });
    expect(count.body).toEqual({ frames: 1001 });
    const after = await core.request('GET', '/api/market/addons/frame-counter/0.2.0', { token });
    expect(after.body).toMatchObject({ isInstalled: true });
    const listed = await core.request('GET', '/api/market/addons', { token });
    expect(listed.body.addons).toEqual([
      expect.objectContaining({ name: 'frame-counter', currentLatestVersion: '0.2.0', isOutdated: false }),
    ]);
  });
});
