// Jest settings for code that boots the Pipewright core: TypeScript sources as ES modules compiled by swc (run Jest
// with NODE_OPTIONS=--experimental-vm-modules), imported with .js suffixes. Plain JavaScript, because Jest reads its
// configuration before anything could compile TypeScript.

// ESM-only packages that CommonJS dependencies of the core require (Node 20.19 can, Jest cannot): compiled to
// CommonJS for Jest.
const ESM_REQUIRED_BY_CJS = ['cookie', 'content-disposition'];

/** The Jest configuration of a package whose tests are test/**\/*.test.ts. */
export function pipewrightJestConfig() {
  return {
    testEnvironment: 'node',
    extensionsToTreatAsEsm: ['.ts', '.tsx'],
    moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
    transform: {
      '^.+\\.tsx?$': [
        '@swc/jest',
        { jsc: { target: 'es2022', parser: { syntax: 'typescript', tsx: true } }, module: { type: 'es6' } },
      ],
      [`^.+/node_modules/(${ESM_REQUIRED_BY_CJS.join('|')})/.+\\.js$`]: [
        '@swc/jest',
        { module: { type: 'commonjs' } },
      ],
    },
    transformIgnorePatterns: [`/node_modules/(?!(${ESM_REQUIRED_BY_CJS.join('|')})/)`],
    testMatch: ['<rootDir>/test/**/*.test.ts'],
    testTimeout: 30000,
  };
}
