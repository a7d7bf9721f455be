import { sql } from 'kysely';
import {
  BadRequest,
  Conflict,
  NotFound,
  ValidationFailed,
  type Database,
  type Problem,
} from '@pipewright/sdk';
import type { DesktopFiles, FileArea, ReceivedFile } from './files.js';
import {
  type ChecksumAlgorithm,
  type DependencyPackageInput,
  type InstallerInput,
  type Platform,
  type Source,
} from './schemas.js';

type Row = Record<string, any>;
type Json = Record<string, unknown>;

/** A source as stored and answered: "server" is never stored, it is added while the file is on the server. */
export interface StoredSource {
  type: 'server' | 'http';
  url?: string;
}

/** One installer or dependency package as the server keeps it. */
export interface PackageRecord {
  filename: string;
  platform: Platform;
  size: number | null;
  checksum: string | null;
  checksumAlgorithm: ChecksumAlgorithm | null;
  sources: StoredSource[];
  pythonVersion: string | null;
  /** Whether the server holds the file (whose size and checksum are the record's). */
  uploaded: boolean;
  /** Fields of this kind only: version and module lists of installers, addons of dependency packages. */
  fields: Json;
}

/**
 * What differs between installers and dependency packages: names, table, directory, and the fields of each kind.
 * Everything else (registering, uploading, checksums, sources, deleting) is the same code for both.
 */
export interface PackageKind<Input> {
  /** "installer" or "dependency_package": also the prefix of the events AYON emits. */
  key: 'installer' | 'dependency_package';
  label: string;
  table: string;
  area: FileArea;
  /** Prefix of the deduplication hash AYON gives install_from_url events. */
  eventHashPrefix: string;
  /** Columns of this kind's own fields. */
  columns(input: Input): Json;
  /** This kind's own fields, as answered on the wire. */
  fields(row: Row): Json;
  /** Version and platform when two records of this kind may not share them (installers), else null. */
  uniqueKey?(input: Input): { version: string; platform: Platform } | null;
}

export const INSTALLERS: PackageKind<InstallerInput> = {
  key: 'installer',
  label: 'Installer',
  table: 'desktop_installers',
  area: 'installers',
  eventHashPrefix: 'installer_install_',
  columns: (input) => ({
    version: input.version,
    python_modules: JSON.stringify(input.pythonModules ?? {}),
    runtime_python_modules: JSON.stringify(input.runtimePythonModules ?? {}),
  }),
  fields: (row) => ({
    version: row.version,
    pythonModules: row.python_modules ?? {},
    runtimePythonModules: row.runtime_python_modules ?? {},
  }),
  uniqueKey: (input) => ({ version: input.version, platform: input.platform }),
};

export const DEPENDENCY_PACKAGES: PackageKind<DependencyPackageInput> = {
  key: 'dependency_package',
  label: 'Dependency package',
  table: 'desktop_dependency_packages',
  area: 'dependency_packages',
  eventHashPrefix: 'dep_pkg_install_',
  columns: (input) => ({
    installer_version: input.installerVersion,
    // As AYON: an addon without a version was not part of the build.
    source_addons: JSON.stringify(
      Object.fromEntries(Object.entries(input.sourceAddons ?? {}).filter(([, version]) => version !== null)),
    ),
    python_modules: JSON.stringify(input.pythonModules ?? {}),
  }),
  fields: (row) => ({
    installerVersion: row.installer_version,
    sourceAddons: row.source_addons ?? {},
    pythonModules: row.python_modules ?? {},
  }),
};

/** Fields both kinds register with. */
interface CommonInput {
  filename: string;
  platform: Platform;
  size?: number | null;
  checksum?: string | null;
  checksumAlgorithm?: ChecksumAlgorithm | null;
  sources?: Source[];
  pythonVersion?: string | null;
}

/** Sources as stored: "url" read as "http" (AYON's legacy name), "server" left to the server, http needing a url. */
export function storedSources(sources: Source[], loc: (string | number)[]): StoredSource[] {
  const problems: Problem[] = [];
  const stored: StoredSource[] = [];
  sources.forEach((source, index) => {
    if (source.type === 'server') return;
    if (!source.url) {
      problems.push({ loc: [...loc, index, 'url'], msg: 'an http source needs a url', type: 'missing' });
      return;
    }
    stored.push({ type: 'http', url: source.url });
  });
  if (problems.length) throw new ValidationFailed(problems);
  return stored;
}

/** The declared checksum, lowercase, with md5 as the algorithm unless another is named. */
function declaredChecksum(input: CommonInput): {
  checksum: string | null;
  algorithm: ChecksumAlgorithm | null;
} {
  const checksum = input.checksum ? input.checksum.toLowerCase() : null;
  return { checksum, algorithm: input.checksumAlgorithm ?? (checksum ? 'md5' : null) };
}

const toRecord = (kind: PackageKind<any>, row: Row): PackageRecord => ({
  filename: row.filename,
  platform: row.platform,
  // The stored file's, once there is one (equal to the declared ones wherever those were given).
  size: row.file_size !== null ? Number(row.file_size) : row.size === null ? null : Number(row.size),
  checksum: row.file_checksum ?? row.checksum,
  checksumAlgorithm: row.file_checksum_algorithm ?? row.checksum_algorithm,
  sources: row.sources ?? [],
  pythonVersion: row.python_version,
  uploaded: row.uploaded_at !== null,
  fields: kind.fields(row),
});

/** The record as AYON answers it: null fields left out, the server first among the sources while it has the file. */
export function toWire(record: PackageRecord): Json {
  const answer: Json = { filename: record.filename, platform: record.platform };
  if (record.size !== null) answer.size = record.size;
  if (record.checksum !== null) answer.checksum = record.checksum;
  if (record.checksumAlgorithm !== null) answer.checksumAlgorithm = record.checksumAlgorithm;
  answer.sources = [...(record.uploaded ? [{ type: 'server' }] : []), ...record.sources];
  if (record.pythonVersion !== null) answer.pythonVersion = record.pythonVersion;
  return { ...answer, ...record.fields };
}

/** Records of one kind in their table, and their files. */
export class PackageStore<Input extends CommonInput> {
  constructor(
    private readonly db: Database,
    private readonly files: DesktopFiles,
    readonly kind: PackageKind<Input>,
  ) {}

  private describe(filename: string) {
    return `${this.kind.label} ${filename}`;
  }

  async list(filter: { version?: string; platform?: Platform } = {}): Promise<PackageRecord[]> {
    let query = this.db.selectFrom(this.kind.table).selectAll().orderBy('filename');
    if (filter.version !== undefined) query = query.where('version', '=', filter.version);
    if (filter.platform !== undefined) query = query.where('platform', '=', filter.platform);
    return (await query.execute()).map((row) => toRecord(this.kind, row));
  }

  async get(filename: string): Promise<PackageRecord | null> {
    const row = await this.db
      .selectFrom(this.kind.table)
      .selectAll()
      .where('filename', '=', filename)
      .executeTakeFirst();
    return row ? toRecord(this.kind, row) : null;
  }

  async require(filename: string): Promise<PackageRecord> {
    const record = await this.get(filename);
    if (!record) throw new NotFound(`${this.describe(filename)} not found`);
    return record;
  }

  /**
   * Register a file that is not on the server yet. An existing name is a conflict unless force is set, as in AYON;
   * forcing keeps an uploaded file only when the new record still describes it (same size and checksum, or none
   * declared), otherwise the file goes and must be uploaded again.
   */
  async register(input: Input, options: { force: boolean; user: string }): Promise<void> {
    // The schema counts characters; file systems count bytes (255), and a longer name could never be stored.
    if (Buffer.byteLength(input.filename) > 255) {
      throw new ValidationFailed([
        { loc: ['body', 'filename'], msg: 'a file name takes at most 255 bytes', type: 'too_long' },
      ]);
    }
    const { checksum, algorithm } = declaredChecksum(input);
    const sources = storedSources(input.sources ?? [], ['body', 'sources']);
    let dropFile = false;
    await this.db.transaction().execute(async (trx) => {
      const existing = await trx
        .selectFrom(this.kind.table)
        .selectAll()
        .where('filename', '=', input.filename)
        .forUpdate()
        .executeTakeFirst();
      if (existing && !options.force) throw new Conflict(`${this.describe(input.filename)} already exists`);
      const unique = this.kind.uniqueKey?.(input);
      if (unique && !options.force) {
        const twin = await trx
          .selectFrom(this.kind.table)
          .select('filename')
          .where('version', '=', unique.version)
          .where('platform', '=', unique.platform)
          .executeTakeFirst();
        if (twin)
          throw new Conflict(
            `${this.kind.label} ${twin.filename} already exists for version ${unique.version} on ${unique.platform}`,
          );
      }

      // Forced over an uploaded file: the file stays only if the new record still describes it.
      let file: Row = {
        file_size: null,
        file_checksum: null,
        file_checksum_algorithm: null,
        uploaded_at: null,
      };
      if (existing?.uploaded_at) {
        const size = input.size ?? null;
        const sameSize = size === null || Number(existing.file_size) === size;
        const sameChecksum =
          checksum === null
            ? algorithm === null || algorithm === existing.file_checksum_algorithm
            : algorithm === existing.file_checksum_algorithm && checksum === existing.file_checksum;
        if (sameSize && sameChecksum) {
          file = {
            file_size: existing.file_size,
            file_checksum: existing.file_checksum,
            file_checksum_algorithm: existing.file_checksum_algorithm,
            uploaded_at: existing.uploaded_at,
          };
        } else {
          dropFile = true;
        }
      }

      const values = {
        filename: input.filename,
        platform: input.platform,
        size: input.size ?? null,
        checksum,
        checksum_algorithm: algorithm,
        ...file,
        sources: JSON.stringify(sources),
        python_version: input.pythonVersion ?? null,
        created_by: options.user,
        ...this.kind.columns(input),
      };
      if (existing) {
        await trx
          .updateTable(this.kind.table)
          .set({ ...values, updated_at: sql`now()` })
          .where('filename', '=', input.filename)
          .execute();
      } else {
        await trx
          .insertInto(this.kind.table)
          .values(values)
          .execute()
          .catch((error: { code?: string }) => {
            // Another request registered the same name a moment ago.
            if (error.code === '23505') throw new Conflict(`${this.describe(input.filename)} already exists`);
            throw error;
          });
      }
      // While the row is still locked, so an upload accepted right after is not the file removed here.
      if (dropFile) await this.files.remove(this.kind.area, input.filename);
    });
  }

  /** The algorithm an upload of this file is hashed with: the declared one, md5 unless it names one (404 if none). */
  async uploadAlgorithm(filename: string): Promise<ChecksumAlgorithm> {
    const row = await this.db
      .selectFrom(this.kind.table)
      .select('checksum_algorithm')
      .where('filename', '=', filename)
      .executeTakeFirst();
    if (!row) throw new NotFound(`${this.describe(filename)} not found`);
    return row.checksum_algorithm ?? 'md5';
  }

  /**
   * Accept a received file for its record: refused (and nothing kept) unless its size and checksum are the declared
   * ones; a record that declared none takes whatever arrives, and a later upload may replace it. The record is locked while the file moves into place, so a concurrent delete or re-registration either
   * happens before (and this upload is refused) or after.
   */
  async acceptUpload(filename: string, received: ReceivedFile): Promise<void> {
    try {
      await this.db.transaction().execute(async (trx) => {
        const row = await trx
          .selectFrom(this.kind.table)
          .selectAll()
          .where('filename', '=', filename)
          .forUpdate()
          .executeTakeFirst();
        if (!row) throw new NotFound(`${this.describe(filename)} not found`);
        const refused = `Upload of ${this.describe(filename)} refused, nothing was kept`;
        if ((row.checksum_algorithm ?? 'md5') !== received.checksumAlgorithm)
          throw new Conflict(
            `${refused}: the record was registered again with another checksum algorithm meanwhile`,
          );
        if (row.size !== null && Number(row.size) !== received.size)
          throw new BadRequest(`${refused}: ${row.size} bytes were declared, ${received.size} arrived`);
        if (row.checksum && row.checksum !== received.checksum)
          throw new BadRequest(
            `${refused}: the ${received.checksumAlgorithm} checksum of the upload is ${received.checksum}, ` +
              `the declared one is ${row.checksum}`,
          );
        await trx
          .updateTable(this.kind.table)
          .set({
            file_size: received.size,
            file_checksum: received.checksum,
            file_checksum_algorithm: received.checksumAlgorithm,
            uploaded_at: sql`now()`,
            updated_at: sql`now()`,
          })
          .where('filename', '=', filename)
          .execute();
        // Last, inside the transaction: if the move fails, the record stays as it was.
        await this.files.commit(received, this.kind.area, filename);
      });
    } catch (error) {
      await this.files.discard(received);
      throw error;
    }
  }

  async setSources(filename: string, sources: Source[]): Promise<void> {
    const stored = storedSources(sources, ['body', 'sources']);
    const result = await this.db
      .updateTable(this.kind.table)
      .set({ sources: JSON.stringify(stored), updated_at: sql`now()` })
      .where('filename', '=', filename)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) throw new NotFound(`${this.describe(filename)} not found`);
  }

  /** Forget the record and remove its file (inside the transaction: if the file cannot go, the record stays). */
  async remove(filename: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const result = await trx
        .deleteFrom(this.kind.table)
        .where('filename', '=', filename)
        .executeTakeFirst();
      if (Number(result.numDeletedRows) === 0) throw new NotFound(`${this.describe(filename)} not found`);
      await this.files.remove(this.kind.area, filename);
    });
  }
}

/**
 * The installer version the production or staging bundle names (bundles written by AYON clients may spell the key
 * either way); NotFound without such a bundle.
 */
export async function bundleInstallerVersion(
  db: Database,
  variant: 'production' | 'staging',
): Promise<string | null> {
  const bundle = await db
    .selectFrom('bundles')
    .select('data')
    .where(variant === 'production' ? 'is_production' : 'is_staging', '=', true)
    .executeTakeFirst();
  if (!bundle) throw new NotFound(`No ${variant} bundle found`);
  const data = (bundle.data ?? {}) as { installerVersion?: string | null; installer_version?: string | null };
  return data.installerVersion ?? data.installer_version ?? null;
}
