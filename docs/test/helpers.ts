import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';

export const DOCS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');
export const OUT_DIR = join(DOCS_DIR, 'out');

/** Debian's chromium, with the flags that keep it from reaching the network on its own. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync('/usr/bin/chromium'))
    throw new Error('/usr/bin/chromium is missing: apt-get install -y chromium');
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export function requireBuiltSite(): void {
  if (!existsSync(join(OUT_DIR, 'index.html')) || !existsSync(join(OUT_DIR, '_pagefind'))) {
    throw new Error(`${OUT_DIR} is not built: run "npm run build" in docs/ (npm test does)`);
  }
}
