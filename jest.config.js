// Jest runs the TypeScript sources directly (ts-jest, transpile only: `npm run build` type-checks).
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/tests'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { isolatedModules: true, tsconfig: 'tsconfig.json' }] },
  // The plugin loads its embedded development store through the package's own export; in tests that
  // is the source the tests import too, so the store's Lua VM patches are installed once per process.
  moduleNameMapper: { '^strapi-plugin-ratelimit/mock$': '<rootDir>/mock' },
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '/\\.tmp/'],
  testTimeout: 30000,
  // A throwaway redis-server for the run when REDIS_URL is unset and the binary is installed.
  globalSetup: '<rootDir>/tests/support/global-setup.ts',
  globalTeardown: '<rootDir>/tests/support/global-teardown.ts',
  reporters: ['default', '<rootDir>/tests/support/summary-reporter.js'],
};
