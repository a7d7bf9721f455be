import { resolve } from 'node:path';

/** Server settings, read once from the environment. */
export interface ServerConfig {
  port: number;
  host: string;
  /** Where the embedded database, uploads and installed addons live. */
  dataDir: string;
  /** A PostgreSQL server; when absent the embedded PGlite database under dataDir is used. */
  databaseUrl: string | null;
  /** Redis for pub/sub between several server processes; optional for one process. */
  redisUrl: string | null;
  redisChannel: string;
  logLevel: string;
  /** One log line per request as it arrives and one as it is answered (ACCESS_LOG); off by default, as a line per
   * request costs about a third of the throughput of a light route. Errors are logged either way. */
  accessLog: boolean;
  /** Largest number of pooled connections to the PostgreSQL server. */
  databasePoolSize: number;
  /** Shown on the login page (LOGIN_MESSAGE). */
  loginMessage: string | null;
  /** Outgoing mail server (SMTP_URL: smtp:// or smtps://, with user and password in it if needed); null: no mail. */
  smtpUrl: string | null;
  /** Sender of the mail the server writes (MAIL_FROM). */
  mailFrom: string;
  /** The address people reach the server at (PUBLIC_URL), such as https://pipewright.studio.example; links in mail
   * may point only there. */
  publicUrl: string | null;
  /** Shortest password accepted at onboarding, user creation, password change and reset (PASSWORD_MIN_LENGTH). */
  passwordMinLength: number;
  /** Proxies whose X-Forwarded-* headers are believed (TRUST_PROXY): false (default: none), a hop count, or
   * comma-separated addresses and CIDR ranges. */
  trustProxy: boolean | number | string;
  /** Longest a single SQL statement may run before the database cancels it (STATEMENT_TIMEOUT, milliseconds). */
  statementTimeoutMs: number;
  /** Largest estimated cost of one GraphQL query (GRAPHQL_MAX_COST): fields, with lists weighted by their size. */
  graphqlMaxCost: number;
  /** Most aliased fields one GraphQL query may have (GRAPHQL_MAX_ALIASES). */
  graphqlMaxAliases: number;
  /** The Python that runs AYON packages' server code (ADDON_PYTHON): it needs pydantic 1.10. */
  addonPython: string;
  /** Crash tests only (TEST_FAILPOINT_HALT_AFTER_COMMIT): see failpoints.ts. Never set it on a studio's server. */
  haltAfterCommitFailpoint: boolean;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function integer(env: NodeJS.ProcessEnv, key: string, fallback: number, min: number, max: number): number {
  const raw = env[key];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${key} must be an integer between ${min} and ${max}, got "${raw}"`);
  }
  return value;
}

/** A true/false setting; anything else stops start-up rather than being read as either. */
function flag(env: NodeJS.ProcessEnv, key: string): boolean {
  const value = env[key]?.trim().toLowerCase();
  if (!value) return false;
  if (['true', '1', 'yes', 'on'].includes(value)) return true;
  if (['false', '0', 'no', 'off'].includes(value)) return false;
  throw new Error(`${key} must be true or false, got "${env[key]}"`);
}

/** SMTP_URL as written, once checked: a typo should stop start-up, not surface at the first password reset. */
function smtpUrl(raw: string | undefined): string | null {
  if (!raw) return null;
  const url = URL.canParse(raw) ? new URL(raw) : null;
  // The value is not repeated in the message: it may hold the mail account's password.
  if (!url || !['smtp:', 'smtps:'].includes(url.protocol) || !url.hostname) {
    throw new Error(
      'SMTP_URL must be an smtp:// or smtps:// URL, such as smtp://user:password@mail.example.com:587',
    );
  }
  return raw;
}

/** PUBLIC_URL as its origin (scheme, host and port): what links the server mails must start with. */
function publicUrl(raw: string | undefined): string | null {
  if (!raw) return null;
  const url = URL.canParse(raw) ? new URL(raw) : null;
  if (!url || !['http:', 'https:'].includes(url.protocol)) {
    throw new Error(
      `PUBLIC_URL must be an http:// or https:// URL, such as https://pipewright.studio.example (got ${raw})`,
    );
  }
  return url.origin;
}

/** TRUST_PROXY as Fastify takes it: off, a hop count, or the proxies' addresses. */
function trustProxy(raw: string | undefined): boolean | number | string {
  const value = raw?.trim();
  if (!value || ['0', 'false', 'no', 'off'].includes(value.toLowerCase())) return false;
  if (['true', 'yes', 'on'].includes(value.toLowerCase())) return true;
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}

/** Read the configuration; a malformed value stops start-up with a message naming the variable. */
export function readConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const logLevel = env.LOG_LEVEL || 'info';
  if (!LOG_LEVELS.includes(logLevel)) throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  return {
    port: integer(env, 'PORT', 5000, 0, 65535),
    host: env.HOST || '0.0.0.0',
    dataDir: resolve(env.DATA_DIR || 'data'),
    databaseUrl: env.DATABASE_URL || null,
    redisUrl: env.REDIS_URL || null,
    redisChannel: env.REDIS_CHANNEL || 'pipewright.events',
    logLevel,
    accessLog: flag(env, 'ACCESS_LOG'),
    databasePoolSize: integer(env, 'DATABASE_POOL_SIZE', 20, 4, 500),
    loginMessage: env.LOGIN_MESSAGE || null,
    smtpUrl: smtpUrl(env.SMTP_URL),
    mailFrom: env.MAIL_FROM || 'Pipewright <pipewright@localhost>',
    publicUrl: publicUrl(env.PUBLIC_URL),
    passwordMinLength: integer(env, 'PASSWORD_MIN_LENGTH', 8, 0, 1024),
    trustProxy: trustProxy(env.TRUST_PROXY),
    statementTimeoutMs: integer(env, 'STATEMENT_TIMEOUT', 60_000, 0, 86_400_000),
    graphqlMaxCost: integer(env, 'GRAPHQL_MAX_COST', 200_000, 1, 1e9),
    graphqlMaxAliases: integer(env, 'GRAPHQL_MAX_ALIASES', 100, 1, 1e6),
    addonPython: env.ADDON_PYTHON || '/usr/bin/python3',
    haltAfterCommitFailpoint: flag(env, 'TEST_FAILPOINT_HALT_AFTER_COMMIT'),
  };
}
