export * from './addon.js';
export * from './errors.js';
export * from './events.js';
export * from './ids.js';
export * from './request.js';
export * from './schemas.js';
export * from './services.js';
export * from './version.js';
export { Type, type Static, type TSchema } from '@sinclair/typebox';
