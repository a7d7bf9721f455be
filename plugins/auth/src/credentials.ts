import type { FastifyRequest } from 'fastify';
import type { ClientInfo } from './api.js';

export type Credentials = { kind: 'token'; token: string } | { kind: 'apiKey'; key: string };

function header(request: FastifyRequest, name: string): string | null {
  const value = request.headers[name];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/**
 * Every form AYON clients send: "Authorization: Bearer <token>", "Authorization: ApiKey <key>", "x-api-key",
 * the accessToken cookie of the web app, and ?token= for links that cannot carry headers.
 */
export function readCredentials(request: FastifyRequest): Credentials | null {
  const authorization = header(request, 'authorization');
  if (authorization) {
    const [scheme, value] = authorization.split(/\s+/, 2);
    if (value && scheme.toLowerCase() === 'bearer') return { kind: 'token', token: value };
    if (value && scheme.toLowerCase() === 'apikey') return { kind: 'apiKey', key: value };
  }
  const apiKey = header(request, 'x-api-key');
  if (apiKey) return { kind: 'apiKey', key: apiKey };
  const cookie = request.cookies?.accessToken;
  if (cookie) return { kind: 'token', token: cookie };
  const query = (request.query as Record<string, unknown> | undefined)?.token;
  if (typeof query === 'string' && query) return { kind: 'token', token: query };
  return null;
}

/** Where a session was opened from, shown in session lists so users recognise their devices. */
export function clientInfo(request: FastifyRequest): ClientInfo {
  return {
    ip: request.ip,
    agent: header(request, 'user-agent'),
    platform: header(request, 'x-ayon-platform'),
    hostname: header(request, 'x-ayon-hostname'),
    siteId: header(request, 'x-ayon-site-id'),
  };
}
