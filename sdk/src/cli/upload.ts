import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { CliError, type AddonFolder } from './addon-folder.js';
import { callServer, type ServerOptions } from './server.js';

// `pipewright addon upload`: send the package to POST /api/addons/install and follow the install event until the
// server says finished or failed. The addon runs at once: no restart.

interface InstallEvent {
  status: string;
  description?: string | null;
  progress?: number | null;
}

const POLL_MS = 200;
const GIVE_UP_MS = 5 * 60_000;

/** Install the packaged addon on the server; `report` hears each change of the install's state. */
export async function uploadAddon(
  addon: AddonFolder,
  server: ServerOptions,
  report: (line: string) => void = () => {},
): Promise<void> {
  if (!existsSync(addon.packageFile))
    throw new CliError(
      `There is no package to upload: run "pipewright addon package" first (${addon.packageFile})`,
    );
  const zip = await readFile(addon.packageFile);
  report(
    `Uploading ${addon.manifest.name} ${addon.manifest.version} (${(zip.length / 1024).toFixed(0)} KiB) to ${server.url}`,
  );
  const { eventId } = await callServer<{ eventId: string }>(server, '/api/addons/install', {
    method: 'POST',
    headers: { 'content-type': 'application/zip' },
    body: zip,
  });
  const started = Date.now();
  let last = '';
  for (;;) {
    const event = await callServer<InstallEvent>(server, `/api/events/${eventId}`);
    const line = `${event.status}${event.progress != null ? ` ${event.progress}%` : ''}${event.description ? `: ${event.description}` : ''}`;
    if (line !== last) report(line);
    last = line;
    if (event.status === 'finished') return;
    if (event.status === 'failed' || event.status === 'aborted')
      throw new CliError(`The server could not install the addon: ${event.description ?? event.status}`);
    if (Date.now() - started > GIVE_UP_MS)
      throw new CliError(
        `The install was still ${event.status} after ${GIVE_UP_MS / 60_000} minutes; see event ${eventId}`,
      );
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
