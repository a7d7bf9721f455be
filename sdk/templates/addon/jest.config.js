// The sdk's Jest settings: TypeScript tests as ES modules (npm test sets NODE_OPTIONS=--experimental-vm-modules).
import { pipewrightJestConfig } from '@pipewright/sdk/jest';

export default pipewrightJestConfig();
