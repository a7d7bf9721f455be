import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DownloadFailed, ValidationFailed, downloadToFile, downloadUrl, openDownload } from '../src/index.js';

// Real HTTP servers on this machine stand in for the places packages are downloaded from, and for the internal
// services a hostile URL would aim at.

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
const servers: Server[] = [];
const sockets = new Set<Socket>();

async function serve(handler: Handler): Promise<{ base: string; port: number }> {
  const server = createServer(handler);
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return { base: `http://127.0.0.1:${port}`, port };
}

const MiB = 2 ** 20;
const CHUNK = Buffer.alloc(64 * 1024, 7);
let folder: string;
let origin: { base: string; port: number };
let internal: { base: string; port: number };

/** Send chunks until the client goes away or `total` bytes were sent, respecting backpressure; no Content-Length. */
function endless(res: ServerResponse, total = Infinity) {
  let sent = 0;
  const pump = () => {
    while (sent < total && !res.destroyed) {
      sent += CHUNK.length;
      if (!res.write(CHUNK)) return void res.once('drain', pump);
    }
    if (!res.destroyed) res.end();
  };
  pump();
}

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'pipewright-download-'));
  // What a hostile URL would like to reach: something that answers only inside the network.
  internal = await serve((_req, res) => res.end('internal secrets'));
  origin = await serve((req, res) => {
    switch (req.url) {
      case '/package.zip':
        return void res.writeHead(200, { 'content-length': '5' }).end('hello');
      case '/moved':
        return void res.writeHead(302, { location: '/package.zip' }).end();
      case '/elsewhere':
        return void res.writeHead(302, { location: `${internal.base}/` }).end();
      case '/loop':
        return void res.writeHead(302, { location: '/loop' }).end();
      case '/endless':
        res.writeHead(200, { 'content-type': 'application/zip' });
        return endless(res);
      case '/announced-huge':
        res.writeHead(200, { 'content-length': String(5 * 2 ** 30) });
        return endless(res);
      case '/stalls-before-answering':
        return; // never answers
      case '/stalls-midway':
        res.writeHead(200, { 'content-length': '1000' });
        return void res.write('x'.repeat(10));
      case '/cut':
        res.writeHead(200, { 'content-length': '1000' });
        res.write('x'.repeat(10));
        return void setTimeout(() => res.socket?.destroy(), 20);
      default:
        return void res.writeHead(404).end('no such file');
    }
  });
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await Promise.all(servers.map((server) => new Promise((done) => server.close(done))));
  await rm(folder, { recursive: true, force: true });
});

/** The DownloadFailed a download ends with (it must end with one). */
async function failure(url: string, limits: Parameters<typeof openDownload>[1] = { maxBytes: MiB }) {
  const path = join(folder, `${Math.random().toString(16).slice(2)}.part`);
  const error = await downloadToFile(url, path, limits).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DownloadFailed);
  // Nothing half-written stays behind.
  expect(existsSync(path)).toBe(false);
  return error as DownloadFailed;
}

describe('downloadToFile', () => {
  it('writes the body to the file and answers its size, following a redirect on the same server', async () => {
    const path = join(folder, 'ok.zip');
    expect(await downloadToFile(`${origin.base}/moved`, path, { maxBytes: MiB })).toEqual({ size: 5 });
    expect(await readFile(path, 'utf8')).toBe('hello');
  });

  it('refuses a body growing past the limit without Content-Length, and memory stays bounded meanwhile', async () => {
    const limit = 512 * MiB;
    // Objects and buffers, not RSS: memory the allocator keeps for later is not the download's. Buffers already
    // written still count until the collector runs, which on Node 24 may be tens of MiB later, so the body is large
    // and the bound under two fifths of it: a download held in memory would need all of it.
    const used = () => {
      const { heapUsed, arrayBuffers } = process.memoryUsage();
      return heapUsed + arrayBuffers;
    };
    global.gc?.();
    const before = used();
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, used())), 5);
    const error = await failure(`${origin.base}/endless`, { maxBytes: limit });
    clearInterval(sampler);
    expect(error.message).toBe('download failed: the file is larger than the limit of 512 MiB');
    expect(error.status).toBe(502);
    // The 512 MiB went to disk as they came: the process grew by a fraction of that, not by all of it.
    expect(peak - before).toBeLessThan(192 * MiB);
    // Half a gigabyte to disk takes a minute where the other test file beside it writes to PostgreSQL with fsync:
    // this test is about memory, not speed.
  }, 180_000);

  it('refuses at once a body announced larger than the limit', async () => {
    const started = Date.now();
    const error = await failure(`${origin.base}/announced-huge`, { maxBytes: MiB });
    expect(error.message).toBe('download failed: the file is larger than the limit of 1 MiB');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('does not follow a redirect to another port, and does not say where it pointed', async () => {
    const error = await failure(`${origin.base}/elsewhere`);
    expect(error.message).toBe(
      'download failed: the server redirected to another host or port, which is not followed',
    );
    expect(error.message).not.toContain(String(internal.port));
    expect((await failure(`${origin.base}/loop`)).message).toBe(
      'download failed: the server redirected too many times',
    );
  });

  it('names the status of an error answer, and only that', async () => {
    expect((await failure(`${origin.base}/nothing.zip`)).message).toBe(
      'download failed: the server answered HTTP 404',
    );
  });

  it('says "could not connect" for a closed port, naming neither the address nor the system error', async () => {
    // A port that was just free: nothing listens there.
    const closed = await serve(() => undefined);
    const server = servers.pop()!;
    await new Promise((done) => server.close(done));
    const error = await failure(`http://127.0.0.1:${closed.port}/x.zip`);
    expect(error.message).toBe('download failed: could not connect to the server');
    expect(error.message).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|\d{4,5}/);
  });

  it('times out a server that does not answer, and one that stops sending', async () => {
    const started = Date.now();
    expect(
      (await failure(`${origin.base}/stalls-before-answering`, { maxBytes: MiB, connectTimeoutMs: 300 }))
        .message,
    ).toBe('download failed: the server did not answer in time');
    expect(
      (await failure(`${origin.base}/stalls-midway`, { maxBytes: MiB, idleTimeoutMs: 300 })).message,
    ).toBe('download failed: the server sent nothing for 300 ms');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('fails a body cut short, and stops when asked to', async () => {
    expect((await failure(`${origin.base}/cut`)).message).toBe(
      'download failed: the connection closed before the whole file arrived',
    );
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 100);
    expect(
      (await failure(`${origin.base}/endless`, { maxBytes: 10 * 2 ** 30, signal: abort.signal })).message,
    ).toBe('download failed: the download was stopped');
  });
});

describe('downloadUrl', () => {
  it.each([
    'data:application/zip;base64,UEsFBgAAAAAAAAAAAAAAAAAAAAAAAA==',
    'file:///etc/passwd',
    'ftp://host/x.zip',
  ])('refuses %s with 422 in AYON\u2019s shape', (url) => {
    const error = (() => {
      try {
        downloadUrl(url);
        return null;
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ValidationFailed);
    expect((error as ValidationFailed).status).toBe(422);
    expect((error as ValidationFailed).problems).toEqual([
      { loc: ['query', 'url'], msg: 'must be an http or https URL', type: 'url_scheme' },
    ]);
  });

  it('refuses what is not a URL, and openDownload checks it too', async () => {
    expect(() => downloadUrl('not a url', ['body', 'url'])).toThrow(ValidationFailed);
    await expect(openDownload('file:///etc/passwd', { maxBytes: 1 })).rejects.toBeInstanceOf(
      ValidationFailed,
    );
  });
});
