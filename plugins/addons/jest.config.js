import { jestConfig } from '../../jest.preset.js';
export default jestConfig('addons', { severalProcesses: true });
