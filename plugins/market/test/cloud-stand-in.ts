import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for Ynput Cloud on loopback, for the calls the market makes through the connect addon: it accepts
 * keys starting with "good-" (401 otherwise) and answers /api/v1/me and /api/v1/licenses from fixed data.
 */
export interface CloudStandIn {
  url: string;
  received: { path: string; query: Record<string, string>; key: string }[];
  /** 'odd' answers the licenses in a shape the market cannot use. */
  mode: 'normal' | 'odd';
  close(): Promise<void>;
}

export const LICENSES = [
  { id: 'lic-studio', subject: 'studio', seats: 25, validUntil: '2027-01-31T00:00:00Z' },
  { id: 'lic-flow', subject: 'addon:flow', seats: 25, validUntil: '2026-12-31T00:00:00Z' },
];

export async function startCloudStandIn(): Promise<CloudStandIn> {
  const standIn: CloudStandIn = { url: '', received: [], mode: 'normal', close: async () => undefined };
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://stand-in');
    const key = String(request.headers['x-ynput-cloud-key'] ?? '');
    standIn.received.push({ path: url.pathname, query: Object.fromEntries(url.searchParams), key });
    const answer = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (!key.startsWith('good-')) return answer(401, { detail: 'Invalid key' });
    if (url.pathname === '/api/v1/me')
      return answer(200, { instanceName: 'market-test', orgName: 'blue-fox' });
    if (url.pathname === '/api/v1/licenses') {
      return answer(200, standIn.mode === 'odd' ? { licenses: 'none' } : { licenses: LICENSES });
    }
    return answer(404, { detail: 'Not found' });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  standIn.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  standIn.close = () =>
    new Promise((done) => {
      server.closeAllConnections();
      server.close(() => done());
    });
  return standIn;
}
