import { Type, ValidationFailed, type AddonApp } from '@pipewright/sdk';
import { RESET_TOKEN_TTL_SECONDS, type PasswordResets } from './password-reset.js';
import { PasswordReset, PasswordResetAnswer, PasswordResetRequest } from './schemas.js';

/** POST /api/users/passwordResetRequest and /api/users/passwordReset: open to everyone, as they must be. */
export function passwordResetRoutes(resets: PasswordResets) {
  return async (app: AddonApp) => {
    app.post(
      '/api/users/passwordResetRequest',
      {
        schema: {
          summary: 'Mail a password reset link to the account with this address',
          description:
            `The link is url?token=<token>, works once and for ${RESET_TOKEN_TTL_SECONDS / 60} minutes. The answer ` +
            "is the same whether or not an active user has the address. url must be on the server's public address " +
            '(PUBLIC_URL), else 422. 503 when the server has no mail server (SMTP_URL) or no PUBLIC_URL configured.',
          security: [],
          body: PasswordResetRequest,
          response: { 200: Type.Null({ description: 'Done (AYON answers 200 with no content)' }) },
        },
      },
      async (request) => {
        const url = URL.canParse(request.body.url) ? new URL(request.body.url) : null;
        if (!url) {
          throw new ValidationFailed([
            { loc: ['body', 'url'], msg: 'must be an http or https URL', type: 'url_parsing' },
          ]);
        }
        await resets.request(request.body.email, url);
        return null;
      },
    );

    app.post(
      '/api/users/passwordReset',
      {
        schema: {
          summary: 'Set a new password with the token of a reset link, and log in',
          description:
            'With password: the password is set, the token used up, every session of the user ended, and the answer ' +
            'is a login (detail, token, user). Without password: only checks the token ({"detail": "Token is ' +
            'valid"}). 403 when the token is unknown, used or expired.',
          security: [],
          body: PasswordReset,
          response: { 200: PasswordResetAnswer },
        },
      },
      async (request) => resets.reset(request.body.token, request.body.password, request),
    );
  };
}
