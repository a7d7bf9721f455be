import type { ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * The policy of pages (the web app, addon screens, the GraphQL explorer). Scripts only from the server itself (the
 * explorer's one inline script carries its own policy); inline styles are allowed because React and the screens set
 * style attributes. Pages may be framed only by the server's own pages (addon screens). HSTS is left to the TLS
 * proxy in front, which knows whether the studio serves HTTPS at all.
 */
const PAGE_POLICY: HelmetOptions = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      baseUri: ["'self'"],
      objectSrc: ["'none'"],
      frameAncestors: ["'self'"],
      formAction: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      mediaSrc: ["'self'", 'data:', 'blob:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      workerSrc: ["'self'", 'blob:'],
    },
  },
  strictTransportSecurity: false,
  referrerPolicy: { policy: 'same-origin' },
};

/**
 * What an API answer needs: never sniffed into something a browser would run, and never read by another site's
 * page through a cookie-carrying <img> or <script>. The page headers (framing, scripts, referrer, window isolation)
 * mean nothing to JSON, and each header costs every answer time on both ends. API routes that send files a browser
 * may open (attachments, thumbnails) set a sandbox policy of their own.
 */
const API_HEADERS: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  'cross-origin-resource-policy': 'same-origin',
};

/** The headers helmet sets for these options, worked out once instead of by a middleware on every request. */
function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const collect = {
    setHeader: (name: string, value: string) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: () => undefined,
  } as unknown as ServerResponse;
  helmet(options)({} as never, collect, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}

/**
 * A function setting the security headers of an answer: the page set outside /api, the API set under it. Set
 * before the route runs, so a route may still replace one, such as its own Content-Security-Policy. They go on
 * the reply, not on the raw response: a header set on the raw response sends Node's writeHead down its slow path,
 * which checks every header of the answer once more.
 */
export function securityHeaders(): (request: FastifyRequest, reply: FastifyReply) => void {
  const page = helmetHeaders(PAGE_POLICY);
  return (request, reply) => void reply.headers(request.url.startsWith('/api/') ? API_HEADERS : page);
}
