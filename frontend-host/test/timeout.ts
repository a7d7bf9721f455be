import { jest } from '@jest/globals';

// Browser flows need more than the 30 s other tests get. Set here rather than as the configuration's testTimeout,
// which a run over several packages (scripts/test-web.sh) takes from the run, not from each package.
jest.setTimeout(120_000);
