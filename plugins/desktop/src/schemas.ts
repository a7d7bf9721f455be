import { Type, type Static } from '@sinclair/typebox';
import { INDEXED_KEY_MAX_LENGTH } from '@pipewright/sdk';

export const PLATFORMS = ['windows', 'linux', 'darwin'] as const;
export type Platform = (typeof PLATFORMS)[number];

export const CHECKSUM_ALGORITHMS = ['md5', 'sha1', 'sha256'] as const;
export type ChecksumAlgorithm = (typeof CHECKSUM_ALGORITHMS)[number];

const stringEnum = <const T extends readonly string[]>(values: T, options: Record<string, unknown> = {}) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });

export const PlatformSchema = stringEnum(PLATFORMS, {
  description: 'Operating system the file is built for',
});

/**
 * The name of the file on disk, joined to the area's own directory: any name AYON takes, except what would leave
 * that directory or name no file (a separator, NUL, empty, "." or "..") and what no file system takes (over 255
 * characters). Nothing stricter: AYON has no rule of its own here.
 */
export const Filename = Type.String({
  pattern: '^(?!\\.\\.?$)[^/\\\\\\x00]+$',
  maxLength: 255,
  description: 'Name of the file: no slash, backslash or NUL, not "." or "..", at most 255 characters',
  examples: ['AYON-1.0.0-win-setup.exe'],
});

export const FilenameParams = Type.Object({ filename: Filename });

/**
 * Where the launcher can fetch the file. "server" is never stored: the server lists it, first, exactly while it
 * holds the uploaded file. "url" is the legacy spelling of "http" that AYON still accepts.
 */
export const Source = Type.Object({
  type: stringEnum(['server', 'http', 'url'] as const, {
    description: 'server: stored on this server (download from the file route); http: from the url',
  }),
  url: Type.Optional(
    Type.Union([Type.String(), Type.Null()], {
      description: 'Where to download the file from (type http)',
    }),
  ),
});
export type Source = Static<typeof Source>;

const Sources = Type.Array(Source, {
  description: 'Where to download the file from; the server source is added by the server after an upload',
});

export const SourcesPatch = Type.Object({ sources: Sources });

const ModuleVersions = Type.Record(
  Type.String(),
  Type.Union([Type.String(), Type.Record(Type.String(), Type.String())]),
  {
    description: 'Python module name to version (or to a version per platform)',
  },
);

/** Fields installers and dependency packages share (AYON's BasePackageModel). */
const common = {
  filename: Filename,
  platform: PlatformSchema,
  size: Type.Optional(Type.Union([Type.Integer(), Type.Null()], { description: 'Size in bytes' })),
  checksum: Type.Optional(
    Type.Union([Type.String(), Type.Null()], {
      description: 'Hex digest of the file, checked when the file is uploaded',
    }),
  ),
  checksumAlgorithm: Type.Optional(
    Type.Union([stringEnum(CHECKSUM_ALGORITHMS), Type.Null()], { description: 'md5 unless named' }),
  ),
  sources: Type.Optional(Sources),
  pythonVersion: Type.Optional(Type.Union([Type.String(), Type.Null()], { examples: ['3.11'] })),
};

export const InstallerInput = Type.Object({
  ...common,
  // Indexed with the platform (an installer per version and platform): held to what an index key takes.
  version: Type.String({
    maxLength: INDEXED_KEY_MAX_LENGTH,
    description: 'Version of the launcher',
    examples: ['1.0.0'],
  }),
  pythonModules: Type.Optional(ModuleVersions),
  runtimePythonModules: Type.Optional(
    Type.Record(Type.String(), Type.String(), {
      description: 'Python module name to version, used to run it',
    }),
  ),
});
export type InstallerInput = Static<typeof InstallerInput>;

export const DependencyPackageInput = Type.Object({
  ...common,
  installerVersion: Type.String({
    description: 'Version of the launcher the package was built with',
    examples: ['1.0.0'],
  }),
  sourceAddons: Type.Optional(
    Type.Record(Type.String(), Type.Union([Type.String(), Type.Null()]), {
      description: 'Addon name to the version the package was built from (null entries are dropped)',
    }),
  ),
  pythonModules: Type.Optional(ModuleVersions),
});
export type DependencyPackageInput = Static<typeof DependencyPackageInput>;

/** Sources as answered: the server (first, while it holds the file) and http urls. */
const AnsweredSources = Type.Array(
  Type.Object({ type: stringEnum(['server', 'http'] as const), url: Type.Optional(Type.String()) }),
);

/** What the server answers: as registered (null fields left out), with the stored file's size and checksum. */
export const Installer = Type.Object({ ...InstallerInput.properties, sources: AnsweredSources });
export const DependencyPackage = Type.Object({
  ...DependencyPackageInput.properties,
  sources: AnsweredSources,
});
export type Installer = Static<typeof Installer>;
export type DependencyPackage = Static<typeof DependencyPackage>;

export const InstallerList = Type.Object({ installers: Type.Array(Installer) });
export const DependencyPackageList = Type.Object({ packages: Type.Array(DependencyPackage) });

export const InstallerQuery = Type.Object({
  version: Type.Optional(Type.String({ description: 'Only installers of this launcher version' })),
  platform: Type.Optional(PlatformSchema),
  variant: Type.Optional(
    stringEnum(['production', 'staging'] as const, {
      description: 'Only the installer version the production (or staging) bundle names',
    }),
  ),
});

export const RegisterQuery = Type.Object({
  url: Type.Optional(
    Type.String({
      description:
        'Download the file from this address in the background (an install_from_url event follows it)',
    }),
  ),
  force: Type.Optional(
    Type.Boolean({ default: false, description: 'Replace an existing record of this name' }),
  ),
  overwrite: Type.Optional(Type.Boolean({ default: false, description: 'Deprecated spelling of force' })),
});

export const RegisterResponse = Type.Object({
  eventId: Type.Union([Type.String(), Type.Null()], {
    description: 'The event following the download when a url was given',
  }),
});
