import { jestConfig } from '../jest.preset.js';

// The end-to-end tests drive chromium against the built site (out/); `npm test` builds it first.
export default { ...jestConfig('docs'), setupFilesAfterEnv: ['<rootDir>/test/timeout.ts'] };
