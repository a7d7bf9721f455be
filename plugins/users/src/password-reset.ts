import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import {
  Forbidden,
  ServiceUnavailable,
  ValidationFailed,
  type Database,
  type UserRecord,
} from '@pipewright/sdk';
import type { AuthService, LoginResponse } from '@pipewright/plugin-auth/api';
import type { Mailer, OutgoingMail } from './mail.js';
import { hashPassword } from './passwords.js';
import type { UserService } from './service.js';
import type { OneTimeTokens } from '@pipewright/plugin-auth/api';

/** Provided by the auth addon: the links mailed to users, password resets among them. */

const PURPOSE = 'password-reset';
/** How long a reset link works, as in AYON. */
export const RESET_TOKEN_TTL_SECONDS = 3600;
/** Asking again within this time sends nothing: a form resubmitted, or someone flooding a colleague's inbox. */
export const RESEND_AFTER_MS = 60_000;

const INVALID = 'The password reset link is invalid or has expired';
const NO_MAIL =
  'Password reset by mail is not available: this server has no mail server configured (SMTP_URL). ' +
  'Ask an administrator to set your password.';
const NO_PUBLIC_URL =
  'Password reset by mail is not available: this server does not know its public address (PUBLIC_URL), which ' +
  'reset links must point to. Ask an administrator to set your password.';

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** Who may reset a password by mail: active people (service users have no password to reset). */
const canReset = (user: UserRecord | null | undefined): user is UserRecord =>
  !!user && user.active && user.data.isService !== true;

function resetMail(user: UserRecord, address: string, link: string): OutgoingMail {
  const name =
    typeof user.attrib.fullName === 'string' && user.attrib.fullName ? user.attrib.fullName : user.name;
  const minutes = RESET_TOKEN_TTL_SECONDS / 60;
  const text =
    `Hello ${name},\n\n` +
    `someone (hopefully you) asked to reset the password of the Pipewright account "${user.name}".\n` +
    `To choose a new password, open this link within ${minutes} minutes:\n\n${link}\n\n` +
    'If you did not ask for this, ignore this message: your password stays as it is.\n';
  const html =
    `<p>Hello ${escapeHtml(name)},</p>` +
    `<p>someone (hopefully you) asked to reset the password of the Pipewright account ` +
    `<b>${escapeHtml(user.name)}</b>. To choose a new password, open this link within ${minutes} minutes:</p>` +
    `<p><a href="${escapeHtml(link)}">Choose a new password</a></p>` +
    '<p>If you did not ask for this, ignore this message: your password stays as it is.</p>';
  return { to: { name, address }, subject: 'Reset your Pipewright password', text, html };
}

/** Password reset by mail: a one-time link to the user's address, then a new password through it. */
export class PasswordResets {
  constructor(
    private readonly db: Database,
    private readonly users: UserService,
    private readonly auth: AuthService,
    private readonly tokens: OneTimeTokens,
    private readonly mailer: Mailer | null,
    /** The server's public origin (PUBLIC_URL): links may point only there. */
    private readonly publicUrl: string | null,
    private readonly log: FastifyBaseLogger,
  ) {}

  /**
   * Mail a reset link (url?token=...) to every active user with this address. The answer never says whether
   * anyone has it, and the mail goes out after the answer, so neither the answer nor its timing tells.
   */
  async request(email: string, url: URL): Promise<void> {
    // Checked before the address is looked up: the answer must be the same for every address.
    if (!this.mailer) throw new ServiceUnavailable(NO_MAIL, 'mail-not-configured');
    if (!this.publicUrl) throw new ServiceUnavailable(NO_PUBLIC_URL, 'public-url-not-configured');
    // The client names the page of the link, but not its site: a link to anyone else's site would hand them the
    // token of whoever clicks it.
    if (url.origin !== this.publicUrl) {
      throw new ValidationFailed([
        {
          loc: ['body', 'url'],
          msg: `must be an address of this server (${this.publicUrl})`,
          type: 'url_origin',
        },
      ]);
    }
    // No address is nobody's address: users whose e-mail is blank are not its owners.
    if (!email.trim()) return;
    const rows = await this.db
      .selectFrom('users')
      .select('name')
      .where(sql<boolean>`lower(attrib->>'email') = ${email.toLowerCase()}`)
      .orderBy('name')
      .execute();
    const mails: OutgoingMail[] = [];
    let matched = 0;
    for (const { name } of rows) {
      const user = await this.users.get(name);
      if (!canReset(user)) continue;
      matched += 1;
      const last = await this.tokens.lastIssued(PURPOSE, user.name);
      if (last && Date.now() - last.getTime() < RESEND_AFTER_MS) continue;
      // Only the newest link works: an older mail found later in the inbox cannot be used any more.
      const token = await this.tokens.issue(PURPOSE, user.name, {
        ttlSeconds: RESET_TOKEN_TTL_SECONDS,
        replace: true,
      });
      const link = new URL(url);
      link.searchParams.set('token', token);
      // To the address as the account has it, not as it was typed into the form.
      mails.push(resetMail(user, String(user.attrib.email), link.toString()));
    }
    if (matched === 0) this.log.info('password reset asked for an address no active user has');
    void this.deliver(mails);
  }

  /** Without a password: whether the link still works. With one: set it, end every session, log in. */
  async reset(
    token: string,
    password: string | undefined,
    request: FastifyRequest,
  ): Promise<
    Omit<LoginResponse, 'token' | 'user'> & { token: string | null; user: LoginResponse['user'] | null }
  > {
    if (password === undefined) {
      const link = await this.tokens.peek(PURPOSE, token);
      if (!link || !canReset(await this.users.get(link.userName)))
        throw new Forbidden(INVALID, 'invalid-token');
      return { detail: 'Token is valid', error: null, token: null, user: null, redirectUrl: null };
    }
    this.users.requirePassword(password, ['body', 'password']);
    const passwordHash = await hashPassword(password);
    // Token used up and password changed together, or neither: a failure leaves the link working.
    const name = await this.db.transaction().execute(async () => {
      const link = await this.tokens.consume(PURPOSE, token);
      const user = link ? await this.users.get(link.userName) : null;
      if (!canReset(user)) throw new Forbidden(INVALID, 'invalid-token');
      await this.db
        .updateTable('users')
        .set({ password_hash: passwordHash, updated_at: sql`now()` })
        .where('name', '=', user.name)
        .execute();
      return user.name;
    });
    // Whoever knew the old password (or holds an old session) is out; other reset links stop working too.
    await this.auth.closeSessions(name);
    const login = await this.auth.login(await this.users.require(name), request);
    return { ...login, detail: 'Password changed' };
  }

  private async deliver(mails: OutgoingMail[]): Promise<void> {
    for (const mail of mails) {
      try {
        await this.mailer!.send(mail);
      } catch (error) {
        this.log.error({ err: error }, `could not send the password reset mail to ${mail.to.address}`);
      }
    }
  }
}
