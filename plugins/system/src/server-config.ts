import {
  NotFound,
  Type,
  ValidationFailed,
  check,
  mergePatch,
  type Database,
  type EventBus,
  type Static,
} from '@pipewright/sdk';
import type { FastifyBaseLogger } from 'fastify';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Where the frontend may fetch a changelog or release list from: empty for the built-in behaviour. */
const Url = (title: string, description: string) =>
  Type.String({ maxLength: 2048, pattern: '^$|^https?://[^\\s]+$', default: '', title, description });

/**
 * The stored name of an uploaded image: set by PUT /api/config/files/{file_type}, named after its content so a
 * new image gets a new name (and browsers a new URL). Clear it to go back to the built-in image. Any text is taken,
 * as in AYON; the files route serves, and a change removes, only a name of the stored images' form.
 */
const StoredImage = (title: string, fileType: string) =>
  Type.String({
    default: '',
    title,
    description: `Set by uploading to /api/config/files/${fileType}; empty for the built-in image`,
  });

/** The server configuration, with the login message default taken from LOGIN_MESSAGE. */
export function serverConfigSchema(defaultMotd: string) {
  return Type.Object(
    {
      studioName: Type.String({
        default: '',
        title: 'Studio name',
        description: 'Shown in the web app and on the login page',
      }),
      customization: Type.Object(
        {
          motd: Type.String({
            default: defaultMotd,
            title: 'Login page message',
            description: 'Markdown shown on the login page (its default comes from LOGIN_MESSAGE)',
          }),
          loginBackground: StoredImage('Login page background', 'login_background'),
          studioLogo: StoredImage('Studio logo', 'studio_logo'),
          frontendFlags: Type.Array(
            Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-zA-Z0-9_.\\-]+$' }),
            {
              maxItems: 100,
              uniqueItems: true,
              default: [],
              title: 'Frontend flags',
              description: 'Switches the web app reads to turn optional or experimental behaviour on',
            },
          ),
        },
        { additionalProperties: false, default: {}, title: 'Customization' },
      ),
      changelog: Type.Object(
        {
          enabled: Type.Boolean({
            default: true,
            title: 'Show the changelog',
            description: "Let the web app show what's new after an upgrade",
          }),
          url: Url(
            'Changelog source',
            'Where the web app reads the changelog from; empty for the built-in one',
          ),
        },
        { additionalProperties: false, default: {}, title: 'Changelog' },
      ),
      releases: Type.Object(
        {
          checkForUpdates: Type.Boolean({
            default: false,
            title: 'Check for updates',
            description: 'Let the web app tell administrators about newer server releases',
          }),
          url: Url('Release list', 'Where the web app looks for releases; empty for the built-in list'),
        },
        { additionalProperties: false, default: {}, title: 'Releases' },
      ),
    },
    { additionalProperties: false, title: 'Server configuration' },
  );
}

export type ServerConfigSchema = ReturnType<typeof serverConfigSchema>;
export type ServerConfig = Static<ServerConfigSchema>;

/** Keys anyone may read with GET /api/config/value/{key}, logged in or not: the login page shows them. */
const PUBLIC_KEYS = ['studioName', 'customization'];

/** True when a dotted key is public (a public key itself or something inside one). */
export function isPublicKey(key: string): boolean {
  return PUBLIC_KEYS.some((open) => key === open || key.startsWith(`${open}.`));
}

function sameJson(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => key in b && sameJson(a[key], b[key]));
  }
  return a === b;
}

/** What a full configuration changes against the defaults, object by object. */
export function overridesOf(value: Json, defaults: Json): Json {
  const changed: Json = {};
  for (const [key, own] of Object.entries(value)) {
    const base = defaults[key];
    if (isObject(own) && isObject(base)) {
      const inner = overridesOf(own, base);
      if (Object.keys(inner).length) changed[key] = inner;
    } else if (!sameJson(own, base)) {
      changed[key] = own;
    }
  }
  return changed;
}

const clone = <T>(value: T): T => structuredClone(value);

/**
 * The server configuration in public.server_config: only overrides are stored, defaults come from the schema.
 * Nothing is cached, so a change made through one server process is what every other process answers next.
 */
export class ServerConfigStore {
  readonly defaults: ServerConfig;

  constructor(
    private readonly db: Database,
    private readonly events: EventBus,
    private readonly log: FastifyBaseLogger,
    readonly schema: ServerConfigSchema,
  ) {
    const defaults: Json = {};
    check(schema, defaults, []);
    this.defaults = defaults as ServerConfig;
  }

  async overrides(): Promise<Json> {
    const row = await this.db.selectFrom('server_config').select('overrides').executeTakeFirst();
    return (row?.overrides as Json | undefined) ?? {};
  }

  async get(): Promise<ServerConfig> {
    return this.resolve(await this.overrides());
  }

  /** A value by dotted key (studioName, customization.motd); NotFound for keys the configuration does not have. */
  async value(key: string): Promise<unknown> {
    let at: unknown = await this.get();
    for (const part of key.split('.')) {
      if (!isObject(at) || !Object.hasOwn(at, part))
        throw new NotFound(`The server configuration has no ${key}`);
      at = at[part];
    }
    return at;
  }

  /** Replace the configuration with a complete one (already validated, defaults filled in). */
  async replace(config: ServerConfig, actor: string): Promise<void> {
    await this.db.transaction().execute(async () => {
      await this.write(overridesOf(config, this.defaults as Json));
      await this.changed(actor);
    });
  }

  /**
   * Merge a patch into the current configuration (objects key by key, null restores the default) and store the
   * result when it is valid; problems are located in the patch as sent.
   */
  async patch(patch: Json, actor: string): Promise<void> {
    await this.db.transaction().execute(async () => {
      const current = this.resolve(await this.lock());
      const merged = mergePatch(current, patch);
      const problems = check(this.schema, merged, ['body']);
      if (problems.length) throw new ValidationFailed(problems);
      await this.write(overridesOf(merged, this.defaults as Json));
      await this.changed(actor);
    });
  }

  /** Point an image setting at a new file; answers the file it pointed at before. */
  async setImage(key: 'loginBackground' | 'studioLogo', fileName: string, actor: string): Promise<string> {
    const previous = await this.db.transaction().execute(async () => {
      const current = this.resolve(await this.lock());
      const before = current.customization[key];
      current.customization[key] = fileName;
      await this.write(overridesOf(current, this.defaults as Json));
      await this.changed(actor);
      return before;
    });
    return previous;
  }

  /** Defaults overlaid with the stored overrides. Overrides a newer schema no longer accepts are left out. */
  resolve(overrides: Json): ServerConfig {
    const merged = mergePatch(clone(this.defaults as Json), clone(overrides));
    const problems = check(this.schema, merged, []);
    if (problems.length === 0) return merged as ServerConfig;
    const bad = new Set(problems.map((problem) => String(problem.loc[0])));
    this.log.warn(
      { problems },
      'stored server configuration overrides are invalid; using defaults for those parts',
    );
    const kept = Object.fromEntries(Object.entries(overrides).filter(([key]) => !bad.has(key)));
    const retried = mergePatch(clone(this.defaults as Json), clone(kept));
    return check(this.schema, retried, []).length ? clone(this.defaults) : (retried as ServerConfig);
  }

  private async lock(): Promise<Json> {
    const row = await this.db.selectFrom('server_config').select('overrides').forUpdate().executeTakeFirst();
    return (row?.overrides as Json | undefined) ?? {};
  }

  private async write(overrides: Json): Promise<void> {
    await this.db
      .updateTable('server_config')
      .set({ overrides: JSON.stringify(overrides), updated_at: new Date() })
      .execute();
  }

  /** The event of a change, in the change's unit of work. */
  private async changed(actor: string): Promise<void> {
    await this.events.emit({
      topic: 'server.config_changed',
      user: actor,
      description: 'Server configuration changed',
    });
  }
}
