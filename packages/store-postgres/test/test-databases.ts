import { randomBytes } from 'node:crypto';
import { describeWithService } from '@gateway/testkit';
import { openDatabase, type Database } from '../src/db';
import { migratedMemoryImage } from './memory-image';

export interface TestDatabase extends Database {
  drop(): Promise<void>;
}

export interface TestDatabaseTarget {
  name: string;
  open(): Promise<TestDatabase>;
}

const pglite: TestDatabaseTarget = {
  name: 'pglite',
  async open() {
    const db = await openDatabase({ memoryImage: await migratedMemoryImage() });
    return { ...db, drop: () => db.close() };
  },
};

function postgres(url: string): TestDatabaseTarget {
  return {
    name: 'postgres',
    async open() {
      const schema = `t_${randomBytes(6).toString('hex')}`;
      const db = await openDatabase({ databaseUrl: url, schema });
      return {
        ...db,
        async drop() {
          await db.knex.raw(`drop schema if exists "${schema}" cascade`);
          await db.close();
        },
      };
    },
  };
}

/**
 * Runs a store suite on PGlite in memory, and on the real PostgreSQL of TEST_DATABASE_URL, each run in a schema of
 * its own so runs never collide. Without TEST_DATABASE_URL the PostgreSQL variant shows as skipped with the reason
 * (REQUIRE_EXTERNAL_SERVICES=1 fails instead, as in CI). Test-only: not part of the package's entry point.
 */
export function describeOnTestDatabases(body: (target: TestDatabaseTarget) => void): void {
  describe('on pglite', () => body(pglite));
  describeWithService('TEST_DATABASE_URL', 'on postgres', (url) => body(postgres(url)));
}
