import { readConfig } from './config.js';
import { createServer } from './server.js';

// Start one server process: `npm start` from the repository root.
try {
  const config = readConfig();
  const server = await createServer({ config });
  await server.app.listen({ port: config.port, host: config.host });
  const storage = config.databaseUrl ? 'PostgreSQL server' : `embedded PGlite in ${config.dataDir}`;
  server.app.log.info(
    `Pipewright listening on port ${config.port} (${storage}${config.redisUrl ? ', Redis pub/sub' : ''})`,
  );
  let stopping = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      server.app.log.info(`${signal}: shutting down`);
      server.close().then(
        () => process.exit(0),
        (error) => {
          console.error(error);
          process.exit(1);
        },
      );
    });
  }
} catch (error) {
  console.error(`Pipewright could not start: ${(error as Error).message}`);
  process.exit(1);
}
