import { jestConfig } from '../../jest.preset.js';
export default jestConfig('webhooks', { severalProcesses: true });
