import { Unauthorized, type AddonApp } from '@pipewright/sdk';
import { readCredentials } from './credentials.js';
import { LOGIN_PURPOSE, type OneTimeTokenStore } from './one-time-tokens.js';
import type { OneTimeToken } from './api.js';
import { TokenAuthQuery, TokenLoginResponse } from './schemas.js';
import type { Authenticator } from './service.js';

const INVALID = 'This login link is invalid, has expired or was used already';

function redirectOf(link: OneTimeToken | null): { redirectUrl: string | null } {
  const target = link?.data.redirectUrl;
  return { redirectUrl: typeof target === 'string' ? target : null };
}

/**
 * GET /api/auth/tokenauth?q=<token>: where a mailed login link lands. AYON uses it for links to guests of its cloud
 * licence; here the links are one-time login tokens that addons issue to existing users through the oneTimeTokens
 * service (purpose "login"), the mechanism password reset uses too.
 */
export function tokenAuthRoute(app: AddonApp, auth: Authenticator, tokens: OneTimeTokenStore) {
  app.get(
    '/api/auth/tokenauth',
    {
      schema: {
        summary: 'Log in with a one-time link token (q)',
        description:
          'Answers as a login does, with redirectUrl when the link names where to go. The token is used up. A caller ' +
          'who is logged in already keeps the current session, and the link stays unused. 401 when the token is ' +
          'unknown, expired or used, or its user cannot log in.',
        security: [],
        querystring: TokenAuthQuery,
        response: { 200: TokenLoginResponse },
      },
    },
    async (request) => {
      const { q } = request.query;
      const credentials = readCredentials(request);
      // A link opened in a browser that is logged in already (as AYON does): the link is kept for later.
      if (request.user?.sessionId && credentials?.kind === 'token') {
        const current = await auth.users?.get(request.user.name);
        if (current) {
          return {
            detail: `User ${current.name} already logged in`,
            error: null,
            token: credentials.token,
            user: auth.users!.present(current),
            ...redirectOf(await tokens.peek(LOGIN_PURPOSE, q)),
          };
        }
      }
      const link = await tokens.consume(LOGIN_PURPOSE, q);
      if (!link) throw new Unauthorized(INVALID, 'invalid-token');
      const user = await auth.users?.get(link.userName);
      // Service users work with API keys only, here as at the login prompt.
      if (!user?.active || user.data.isService === true) throw new Unauthorized(INVALID, 'invalid-token');
      return { ...(await auth.login(user, request)), ...redirectOf(link) };
    },
  );
}
