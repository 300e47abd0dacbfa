import type { Config } from 'jest';

const config: Config = {
  testEnvironment: 'node',
  roots: ['<rootDir>/packages'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { diagnostics: false }] },
  moduleNameMapper: { '^@gateway/(.*)$': '<rootDir>/packages/$1/src' },
  testTimeout: 30000,
  // Two workers on the 2-core machines: jest would otherwise run everything in one process (in band).
  maxWorkers: 2,
};

export default config;
