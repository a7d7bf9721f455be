import { lookup } from 'node:dns';
import { isIP } from 'node:net';
import { BadRequest } from '@pipewright/sdk';

// Where a webhook may post: http(s) only, and by default never to this machine or the studio's private network
// (loopback, link-local, private and shared ranges), so that a webhook cannot be aimed at services behind the
// firewall. WEBHOOKS_ALLOW_PRIVATE=true allows them (a receiver inside the studio). The address is checked when the
// webhook is saved and again as each attempt connects, after DNS resolution, so a name cannot change its answer.

export const allowPrivate = () => process.env.WEBHOOKS_ALLOW_PRIVATE === 'true';

const PRIVATE_V4: [number, number][] = [
  [0x00000000, 8], // 0.0.0.0/8
  [0x0a000000, 8], // 10/8
  [0x64400000, 10], // 100.64/10, shared address space
  [0x7f000000, 8], // 127/8
  [0xa9fe0000, 16], // 169.254/16, link-local
  [0xac100000, 12], // 172.16/12
  [0xc0a80000, 16], // 192.168/16
];

function privateV4(address: string): boolean {
  const value = address.split('.').reduce((n, part) => n * 256 + Number(part), 0);
  return PRIVATE_V4.some(([base, bits]) => value >>> (32 - bits) === base >>> (32 - bits));
}

/** Whether an address is loopback, link-local, private or unspecified. */
export function isPrivateAddress(address: string): boolean {
  if (isIP(address) === 4) return privateV4(address);
  const lower = address.toLowerCase();
  const mapped = lower.match(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/);
  if (mapped) return privateV4(mapped[1]!);
  return lower === '::' || lower === '::1' || /^f[cd]/.test(lower) || /^fe[89ab]/.test(lower);
}

/** A target URL as saved: http or https, with a host. */
export function checkUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new BadRequest(`${raw} is not a URL`, 'webhook-url');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new BadRequest('A webhook posts to an http or https URL', 'webhook-url');
  return url;
}

/** Resolve a host as a connection would, refusing private addresses unless they are allowed. */
export function resolvePublic(host: string): Promise<{ address: string; family: number }[]> {
  return new Promise((resolve, reject) => {
    lookup(host.replace(/^\[|\]$/g, ''), { all: true }, (error, addresses) => {
      if (error) return reject(new BadRequest(`${host} does not resolve`, 'webhook-unresolved'));
      if (!allowPrivate() && addresses.some(({ address }) => isPrivateAddress(address)))
        return reject(
          new BadRequest(
            `${host} is a private or local address; set WEBHOOKS_ALLOW_PRIVATE=true to allow such targets`,
            'webhook-private-target',
          ),
        );
      resolve(addresses);
    });
  });
}

/**
 * The lookup an attempt's connection uses: the checked addresses, never a second answer. Node asks for all of them
 * when it tries several families.
 */
export function checkedLookup(
  host: string,
  options: { all?: boolean },
  done: (
    error: Error | null,
    address: string | { address: string; family: number }[],
    family?: number,
  ) => void,
): void {
  resolvePublic(host).then(
    (addresses) =>
      options.all ? done(null, addresses) : done(null, addresses[0]!.address, addresses[0]!.family),
    (error: Error) => done(error, ''),
  );
}
