// Shared Jest settings: ESM mode with swc, TypeScript sources imported with .js suffixes.
const esmRequiredByCjs = ['cookie', 'content-disposition'];

export function jestConfig(displayName) {
  return {
    displayName,
    testEnvironment: 'node',
    extensionsToTreatAsEsm: ['.ts', '.tsx'],
    moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
    transform: {
      '^.+\\.tsx?$': ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax: 'typescript', tsx: true } }, module: { type: 'es6' } }],
      // ESM-only packages that CommonJS dependencies require (Node 20.19 can, Jest cannot): compile them to CommonJS.
      [`^.+/node_modules/(${esmRequiredByCjs.join('|')})/.+\\.js$`]: ['@swc/jest', { module: { type: 'commonjs' } }],
    },
    transformIgnorePatterns: [`/node_modules/(?!(${esmRequiredByCjs.join('|')})/)`],
    testMatch: ['<rootDir>/test/**/*.test.ts'],
    testTimeout: 30000,
  };
}
