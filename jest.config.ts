import type { Config } from 'jest';

/**
 * Three lanes (jest projects), fastest first; `npm test` runs them all, `npm run test:unit` the first alone.
 * - unit: the tests beside the code (packages/<pkg>/src): pure rules, codecs, adapters against fakes.
 * - gateway: the stores against a real database (store-postgres: PGlite, PostgreSQL) and the real express app in this
 *   process (supertest, SDKs against an in-process server).
 * - process: real gateway processes, browsers, coding agents, fault injection (test/process and the other
 *   scenario folders under server/test).
 * Each lane's default timeout fits its usual test (a timeout is not an assertion); a test that needs more says so
 * itself. setup/<lane>.ts sets it.
 */
const shared = {
  testEnvironment: 'node',
  // the dashboard's build output is not code under test
  modulePathIgnorePatterns: ['<rootDir>/packages/dashboard/dist'],
  // esbuild strips the types file by file (jest.setup/esbuild-transform.cjs, ADR 0007); the type check is `npm run typecheck`
  transform: { '^.+\\.ts$': ['<rootDir>/jest.setup/esbuild-transform.cjs', {}] } as Record<string, [string, Record<string, unknown>]>,
  moduleNameMapper: {
    // a package's test-support entry (`@gateway/provider-kling/testing`): its fakes, for tests only
    '^@gateway/([^/]+)/testing$': '<rootDir>/packages/$1/src/testing',
    '^@gateway/(.*)$': '<rootDir>/packages/$1/src',
  },
};

const config: Config = {
  // Two workers on the 2-core machines: jest would otherwise run everything in one process (in band).
  maxWorkers: 2,
  // A worker keeps a little of every suite it ran (each suite loads its own module graph; not all of it is freed): over
  // a whole run one grew to 3.4 GB and was killed. A worker whose heap is past this after a suite is replaced by a
  // fresh one (the unit lane also ran faster: 51 -> 35 s).
  workerIdleMemoryLimit: '600MB',
  projects: [
    {
      ...shared,
      displayName: 'unit',
      testMatch: ['<rootDir>/packages/*/src/**/*.test.ts', '<rootDir>/packages/dashboard/test/**/*.test.ts'],
      testPathIgnorePatterns: ['/node_modules/', '<rootDir>/packages/store-postgres/'],
      setupFilesAfterEnv: ['<rootDir>/jest.setup/unit.ts'],
    },
    {
      ...shared,
      displayName: 'gateway',
      testMatch: [
        '<rootDir>/packages/store-postgres/src/**/*.test.ts',
        '<rootDir>/packages/server/test/*.test.ts',
        '<rootDir>/packages/server/test/passthrough/**/*.test.ts',
      ],
      globalSetup: '<rootDir>/jest.setup/memory-image.ts',
      setupFilesAfterEnv: ['<rootDir>/jest.setup/gateway.ts'],
    },
    {
      ...shared,
      displayName: 'process',
      // every folder under server/test but passthrough/ (and compat/, below): a new scenario folder lands here without
      // a list to update
      testMatch: ['<rootDir>/packages/server/test/*/**/*.test.ts'],
      testPathIgnorePatterns: ['/node_modules/', '<rootDir>/packages/server/test/passthrough/', '<rootDir>/packages/server/test/compat/'],
      globalSetup: '<rootDir>/jest.setup/memory-image.ts',
      setupFilesAfterEnv: ['<rootDir>/jest.setup/process.ts'],
    },
    {
      // Part of the process lane, a project of its own because its transform differs: it loads ESM-only client
      // libraries (ai 7, @ai-sdk/*) with import(), which the transform keeps here instead of turning it into require().
      ...shared,
      displayName: 'compat',
      transform: { '^.+\\.ts$': ['<rootDir>/jest.setup/esbuild-transform.cjs', { dynamicImport: true }] },
      testMatch: ['<rootDir>/packages/server/test/compat/**/*.test.ts'],
      globalSetup: '<rootDir>/jest.setup/memory-image.ts',
      setupFilesAfterEnv: ['<rootDir>/jest.setup/process.ts'],
    },
  ],
};

export default config;
