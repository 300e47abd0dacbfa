import { randomBytes } from 'node:crypto';
import { openDatabase, type Database } from './db';

export interface TestDatabaseTarget {
  name: string;
  open(): Promise<Database & { drop(): Promise<void> }>;
}

/**
 * The stores a conformance suite runs against: PGlite in memory always, and the real PostgreSQL of
 * TEST_DATABASE_URL when set (CI sets it), each run in a schema of its own so runs never collide.
 */
export function testDatabaseTargets(env: NodeJS.ProcessEnv = process.env): TestDatabaseTarget[] {
  const targets: TestDatabaseTarget[] = [
    {
      name: 'pglite',
      async open() {
        const db = await openDatabase({});
        return { ...db, drop: () => db.close() };
      },
    },
  ];
  const url = env.TEST_DATABASE_URL;
  if (url) {
    targets.push({
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
    });
  }
  return targets;
}
