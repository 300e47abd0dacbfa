import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';

// the database's side of the check never answers (and the store package with its drivers stays unloaded); the module
// under test is imported inside the test, after this mock is in place (the transform does not hoist it)
jest.mock('@gateway/store-postgres', () => ({ migrationsApplied: () => new Promise<never>(() => undefined) }));

/** A database that never answers: /readyz must not wait for the pool, only for its own budget (on a fake clock). */
let dir: string;
beforeAll(() => (dir = mkdtempSync(path.join(os.tmpdir(), 'readiness-'))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => jest.useRealTimers());

it('a database that does not answer is unreachable once DATABASE_CHECK_MS has passed, not before', async () => {
  const { DATABASE_CHECK_MS, readinessCheck } = await import('./readiness');
  jest.useFakeTimers();
  const silent = {} as Knex;
  let answer: unknown;
  void readinessCheck({ knex: silent, dataDir: dir })().then((r) => (answer = r));
  await jest.advanceTimersByTimeAsync(DATABASE_CHECK_MS - 1);
  expect(answer).toBeUndefined();
  await jest.advanceTimersByTimeAsync(1);
  expect(answer).toEqual({ ready: false, checks: { database: 'unreachable', data_dir: 'ok' } });
});
