import { jestConfig } from '../jest.preset.js';
export default { ...jestConfig('frontend-host'), testTimeout: 120000 };
