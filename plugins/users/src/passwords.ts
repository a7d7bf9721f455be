import { createHash } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { ValidationFailed } from '@pipewright/sdk';

/** 422 for a password shorter than the operator's minimum (PASSWORD_MIN_LENGTH), located at loc. */
export function requirePasswordLength(password: string, minLength: number, loc: (string | number)[]): void {
  if ([...password].length >= minLength) return;
  // Worded as the schema's own minLength finding, which clients and docs already know.
  const msg = `must NOT have fewer than ${minLength} characters`;
  throw new ValidationFailed([{ loc, msg, type: 'minLength' }], `Validation error: ${loc.join('.')}: ${msg}`);
}

// argon2id with the OWASP-recommended cost (19 MiB, 2 passes): about 12 ms per hash here.
const ARGON2 = { memoryCost: 19456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2);
}

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

let decoy: Promise<string> | null = null;
/** Spend as long on an unknown user as on a known one, so response times do not reveal which names exist. */
export async function verifyDecoy(password: string): Promise<void> {
  decoy ??= hashPassword('decoy password that matches nothing');
  await verifyPassword(await decoy, password);
}

/** API keys are long random strings, so a fast hash is enough and lets us find the key by its hash. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** What a key list shows of a key: enough to recognise it, not to use it. */
export function previewApiKey(key: string): string {
  // A short key (AYON takes any) would be all preview: show its end only when most of it stays hidden.
  return `****${key.length > 8 ? key.slice(-4) : ''}`;
}
