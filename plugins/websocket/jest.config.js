import { jestConfig } from '../../jest.preset.js';
export default jestConfig('websocket', { severalProcesses: true });
