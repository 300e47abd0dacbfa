import { randomBytes } from 'node:crypto';
import knex from 'knex';
import type { GatewayEnv } from '../../src/gateway';

/**
 * The store a gateway test runs on: the PostgreSQL of TEST_DATABASE_URL in a schema of its own when there is one
 * (quicker to start than the embedded store on a loaded machine), else the embedded store. `drop` removes the schema.
 */
export function testStore(): { env: Partial<GatewayEnv>; drop(): Promise<void> } {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return { env: {}, drop: async () => undefined };
  const schema = `t_${randomBytes(6).toString('hex')}`;
  return {
    env: { databaseUrl: url, databaseSchema: schema, inMemoryDatabase: false },
    async drop() {
      const db = knex({ client: 'pg', connection: url });
      await db.raw(`drop schema if exists "${schema}" cascade`);
      await db.destroy();
    },
  };
}
