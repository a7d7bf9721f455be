import { parseArgs } from 'node:util';
import { buildAddon } from './build.js';
import { CliError, readAddonFolder } from './addon-folder.js';
import { devAddon } from './dev.js';
import { initAddon } from './init.js';
import { packageAddon } from './packaging.js';
import { serverFromOptions } from './server.js';
import { uploadAddon } from './upload.js';

// The pipewright command line: `pipewright addon <init|build|package|upload|dev>`.

const HELP = `Usage: pipewright addon <command> [options]

Commands:
  init <name> [--dir <folder>]   Create an addon: a route, settings, a migration, a screen and a test
  build                          Bundle the server side into dist/ and build the screens into frontend/dist/
  package                        Write package/{name}-{version}.zip, the file a server installs
  upload                         Install the package on a server and follow the install until it is done
  dev [--port <port>]            Run a local server with the addon, reinstalled whenever a file changes

Options:
  --dir <folder>       The addon folder (default: the current directory; for init: ./<name>)
  --server <url>       The server to upload to (or PIPEWRIGHT_URL)
  --api-key <key>      An administrator's API key (or PIPEWRIGHT_API_KEY)
  --token <token>      An administrator's session token (or PIPEWRIGHT_TOKEN)
  --port <port>        The dev server's port (default 5000)
  -h, --help           Show this help
`;

const log = (line: string) => console.log(line);

/** Run one command line (without "node pipewright"); answers the exit code. */
export async function runCli(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      dir: { type: 'string' },
      server: { type: 'string' },
      'api-key': { type: 'string' },
      token: { type: 'string' },
      port: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [group, command, ...rest] = positionals;
  if (values.help || !group) {
    log(HELP);
    return 0;
  }
  if (group !== 'addon' || !command)
    throw new CliError(`Unknown command "${positionals.join(' ')}"\n\n${HELP}`);
  const dir = values.dir ?? '.';
  switch (command) {
    case 'init': {
      const name = rest[0];
      if (!name) throw new CliError('Name the addon: pipewright addon init <name>');
      const { root, files } = await initAddon(name, values.dir);
      log(`Created ${name} in ${root}:\n${files.map((file) => `  ${file}`).join('\n')}`);
      log(`Next: cd ${root} && npm install && npm test`);
      return 0;
    }
    case 'build': {
      const addon = await readAddonFolder(dir);
      await buildAddon(addon);
      log(`Built ${addon.manifest.name} ${addon.manifest.version}`);
      return 0;
    }
    case 'package': {
      const { file, bytes } = await packageAddon(await readAddonFolder(dir));
      log(`Wrote ${file} (${(bytes / 1024).toFixed(0)} KiB)`);
      return 0;
    }
    case 'upload': {
      const addon = await readAddonFolder(dir);
      await uploadAddon(addon, serverFromOptions(values), log);
      log(`Installed ${addon.manifest.name} ${addon.manifest.version}`);
      return 0;
    }
    case 'dev': {
      const port = Number(values.port ?? 5000);
      if (!Number.isInteger(port) || port < 1 || port > 65535)
        throw new CliError(`--port ${values.port} is not a port`);
      await devAddon(dir, { port, log });
      return 0;
    }
    default:
      throw new CliError(`Unknown command "addon ${command}"\n\n${HELP}`);
  }
}

try {
  process.exitCode = await runCli(process.argv.slice(2));
} catch (error) {
  const known = error instanceof CliError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
  console.error(known ? `pipewright: ${(error as Error).message}` : error);
  process.exitCode = 1;
}
