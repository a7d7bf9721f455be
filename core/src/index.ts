export { readConfig, type ServerConfig } from './config.js';
export { createServer, type PipewrightServer, type ServerOptions } from './server.js';
export { importAddon, type DiscoveredAddon } from './addons/discover.js';
export { openPGlite, openPostgres, type OpenDatabase } from './storage/database.js';
