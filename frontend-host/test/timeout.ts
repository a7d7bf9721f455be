import { jest } from '@jest/globals';

// Browser flows need more than the 30 s other tests get. Set here rather than as the configuration's testTimeout,
// which a run over all packages (scripts/test-packages.sh) takes from the run, not from each package.
jest.setTimeout(120_000);
