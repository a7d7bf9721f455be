import { createHmac, randomBytes } from 'node:crypto';

// Standard Webhooks signing (standardwebhooks.com): a secret is "whsec_" and base64 of its key; a message is signed
// as HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}" with that key, sent as "v1,{base64}". While a rotated
// secret overlaps the new one, both signatures go, space-separated, and a receiver accepts either.

const PREFIX = 'whsec_';

/** A new secret: 24 random bytes, as the specification suggests (between 24 and 64). */
export function newSecret(): string {
  return PREFIX + randomBytes(24).toString('base64');
}

export function sign(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.slice(PREFIX.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** The headers of one attempt: the same webhook-id on every retry, a fresh timestamp and signatures. */
export function signedHeaders(
  secrets: string[],
  id: string,
  body: string,
  now = Date.now(),
): Record<string, string> {
  const timestamp = Math.floor(now / 1000);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((secret) => sign(secret, id, timestamp, body)).join(' '),
  };
}
