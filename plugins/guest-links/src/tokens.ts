import { createHash, randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

// Link and session tokens are 32 random bytes (256 bits) in base64url: 43 characters, safe in a URL fragment.

/** A new token: 43 base64url characters. */
export const newToken = () => randomBytes(32).toString('base64url');

/** What the tables keep of a token: its SHA-256 in hex, which finds the row and cannot be used in its place. */
export const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

// argon2id at the users addon's cost (19 MiB, 2 passes).
const ARGON2 = { memoryCost: 19456, timeCost: 2, parallelism: 1 };

export const hashPassword = (password: string) => hash(password, ARGON2);

export async function passwordMatches(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}
