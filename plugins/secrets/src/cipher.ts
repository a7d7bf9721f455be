import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The environment variable that, when set, supplies the key instead of the key file. */
export const KEY_VARIABLE = 'PIPEWRIGHT_SECRETS_KEY';
/** Name of the key file under the server's data directory. */
export const KEY_FILE = 'secrets.key';

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
// A version prefix lets a later format (another cipher, key rotation ids) sit next to old values in the table.
const FORMAT = 'v1';

const HEX_KEY = /^[0-9a-fA-F]{64}$/;

/** Where the key came from; reported in the start-up log so an operator knows which one is in use. */
export type KeySource = 'environment' | 'file' | 'new file';

/**
 * The studio's secret key: from PIPEWRIGHT_SECRETS_KEY when given, otherwise from dataDir/secrets.key, which is
 * created (32 random bytes as hex, mode 0600) the first time. A malformed key stops the addon with a message
 * naming the variable or file, rather than quietly writing values nobody can read later.
 */
export async function loadKey(
  dataDir: string,
  fromEnvironment: string | undefined,
): Promise<{ key: Buffer; source: KeySource; path: string | null }> {
  if (fromEnvironment !== undefined && fromEnvironment !== '') {
    if (!HEX_KEY.test(fromEnvironment.trim()))
      throw new Error(`${KEY_VARIABLE} must be 64 hexadecimal characters (32 bytes)`);
    return { key: Buffer.from(fromEnvironment.trim(), 'hex'), source: 'environment', path: null };
  }
  const path = join(dataDir, KEY_FILE);
  await mkdir(dataDir, { recursive: true });
  const fresh = randomBytes(KEY_BYTES).toString('hex');
  try {
    // 'wx' fails when the file exists, so two processes starting together never overwrite each other's key.
    await writeFile(path, `${fresh}\n`, { mode: 0o600, flag: 'wx' });
    // writeFile's mode passes through the umask; set it outright so the key is readable by the server's user only.
    await chmod(path, 0o600);
    return { key: Buffer.from(fresh, 'hex'), source: 'new file', path };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const stored = (await readFile(path, 'utf8')).trim();
  // Never replace a damaged key file: every stored value depends on it, and an operator may still recover it.
  if (!HEX_KEY.test(stored))
    throw new Error(
      `${path} does not hold a 64-character hexadecimal key; fix or restore it (or set ${KEY_VARIABLE})`,
    );
  return { key: Buffer.from(stored, 'hex'), source: 'file', path };
}

/** Raised when a stored value cannot be opened: another key wrote it, or the stored text was altered. */
export class UnreadableSecret extends Error {}

/**
 * AES-256-GCM with a random 12-byte IV per value. The secret's name is bound in as additional data, so a value
 * copied onto another row of the table fails authentication instead of turning up under the wrong name.
 */
export class SecretCipher {
  constructor(private readonly key: Buffer) {
    if (key.length !== KEY_BYTES) throw new Error(`A secrets key is ${KEY_BYTES} bytes, got ${key.length}`);
  }

  /** "v1.<iv>.<tag>.<ciphertext>", each part base64url. */
  encrypt(name: string, value: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(aad(name));
    const body = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
    return [FORMAT, iv, cipher.getAuthTag(), body]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  /** The plain value, or UnreadableSecret when the key is not the one that wrote it or the text was tampered with. */
  decrypt(name: string, stored: string): string {
    const parts = stored.split('.');
    if (parts.length !== 4 || parts[0] !== FORMAT) throw new UnreadableSecret('unknown storage format');
    const [iv, tag, body] = parts.slice(1).map((part) => Buffer.from(part, 'base64url'));
    if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new UnreadableSecret('damaged value');
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, iv, { authTagLength: TAG_BYTES });
      decipher.setAAD(aad(name));
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
    } catch {
      // Node's message ("Unsupported state or unable to authenticate data") says nothing useful to a caller.
      throw new UnreadableSecret('authentication failed');
    }
  }
}

function aad(name: string): Buffer {
  return Buffer.from(`pipewright-secret:${name}`, 'utf8');
}
