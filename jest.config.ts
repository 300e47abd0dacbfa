import type { Config } from 'jest';

const config: Config = {
  testEnvironment: 'node',
  roots: ['<rootDir>/packages'],
  testMatch: ['**/*.test.ts'],
  // the dashboard's build output is not code under test
  modulePathIgnorePatterns: ['<rootDir>/packages/dashboard/dist'],
  transform: { '^.+\\.ts$': ['ts-jest', { diagnostics: false }] },
  moduleNameMapper: { '^@gateway/(.*)$': '<rootDir>/packages/$1/src' },
  // generous: a timeout is not an assertion, and a loaded 2-core machine can take a minute to start a gateway
  testTimeout: 120000,
  // Two workers on the 2-core machines: jest would otherwise run everything in one process (in band).
  maxWorkers: 2,
};

export default config;
