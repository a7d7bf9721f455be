import { jestConfig } from '../jest.preset.js';
export default { ...jestConfig('frontend-host'), setupFilesAfterEnv: ['<rootDir>/test/timeout.ts'] };
