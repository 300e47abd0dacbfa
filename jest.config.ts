import type { Config } from 'jest';

const config: Config = {
  testEnvironment: 'node',
  roots: ['<rootDir>/packages'],
  testMatch: ['**/*.test.ts'],
  // the dashboard's build output is not code under test
  modulePathIgnorePatterns: ['<rootDir>/packages/dashboard/dist'],
  transform: {
    // The compatibility suite loads ESM-only client libraries (ai 7, @ai-sdk/*) with import(), which node16 output keeps.
    '/test/compat/.+\\.ts$': ['ts-jest', { diagnostics: false, tsconfig: '<rootDir>/packages/server/test/compat/tsconfig.json' }],
    '^.+\\.ts$': ['ts-jest', { diagnostics: false }],
  },
  moduleNameMapper: { '^@gateway/(.*)$': '<rootDir>/packages/$1/src' },
  // generous: a timeout is not an assertion, and a loaded 2-core machine can take a minute to start a gateway
  testTimeout: 120000,
  // Two workers on the 2-core machines: jest would otherwise run everything in one process (in band).
  maxWorkers: 2,
};

export default config;
