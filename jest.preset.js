// Shared Jest settings of the repository's packages: the sdk's preset (the one addon authors use), named per package.
import { pipewrightJestConfig } from './sdk/src/jest-preset.js';

export function jestConfig(displayName) {
  return { ...pipewrightJestConfig(), displayName };
}
