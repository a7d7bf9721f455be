import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the stand-in received. */
export interface Received {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingMessage['headers'];
  body: unknown;
}

/**
 * A stand-in for Ynput Cloud, on loopback: the few API calls the server makes, answered from fixed data. Keys that
 * start with "good-" are accepted, any other key is refused with 401. `mode` makes it misbehave on purpose.
 */
export interface CloudStandIn {
  url: string;
  received: Received[];
  mode: 'normal' | 'failing' | 'refusing';
  close(): Promise<void>;
}

export const ORG = {
  instanceName: 'pipewright-test',
  orgId: 'org-7f1c',
  orgName: 'blue-fox',
  orgTitle: 'Blue Fox Animation',
  managed: false,
  collectSaturatedMetrics: true,
  subscriptions: [{ name: 'Studio Pro', productType: 'studio', trialEnd: null }],
};

export async function startCloudStandIn(): Promise<CloudStandIn> {
  const standIn: CloudStandIn = { url: '', received: [], mode: 'normal', close: async () => undefined };
  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const url = new URL(request.url ?? '/', 'http://stand-in');
    const text = Buffer.concat(chunks).toString('utf8');
    standIn.received.push({
      method: request.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: request.headers,
      body: text ? JSON.parse(text) : undefined,
    });
    const answer = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (standIn.mode === 'failing') return answer(503, { detail: 'maintenance' });
    const key = String(request.headers['x-ynput-cloud-key'] ?? '');
    if (standIn.mode === 'refusing' || !key.startsWith('good-'))
      return answer(401, { detail: 'Invalid key' });
    const route = `${request.method} ${url.pathname}`;
    if (route === 'GET /api/v1/me') {
      // The cloud answers in snake_case as often as camelCase: mix both, the server must read either.
      const { orgTitle, collectSaturatedMetrics, ...rest } = ORG;
      return answer(200, {
        ...rest,
        org_title: orgTitle,
        collect_saturated_metrics: collectSaturatedMetrics,
        extra: 1,
      });
    }
    if (route === 'POST /api/v2/feedback') return answer(200, { userHash: 'h-123', organization: 'ayon' });
    if (route === 'GET /api/v1/licenses') {
      return answer(200, {
        licenses: [{ id: 'lic-1', subject: 'studio', seats: 25, validUntil: '2027-01-31T00:00:00Z' }],
      });
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

/** A server that accepts connections and never answers: the cloud hanging. */
export async function startSilentServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(() => undefined);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
