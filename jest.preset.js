// Shared Jest settings: ESM mode with swc, TypeScript sources imported with .js suffixes.
export function jestConfig(displayName) {
  return {
    displayName,
    testEnvironment: 'node',
    extensionsToTreatAsEsm: ['.ts', '.tsx'],
    moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
    transform: {
      '^.+\\.tsx?$': ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax: 'typescript', tsx: true } }, module: { type: 'es6' } }],
      // light-my-request pulls in the ESM-only cookie package, which Jest must see as CommonJS.
      '^.+/node_modules/cookie/.+\\.js$': ['@swc/jest', { module: { type: 'commonjs' } }],
    },
    transformIgnorePatterns: ['/node_modules/(?!(cookie)/)'],
    testMatch: ['<rootDir>/test/**/*.test.ts'],
    testTimeout: 30000,
  };
}
