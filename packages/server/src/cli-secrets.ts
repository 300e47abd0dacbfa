import { DataDirLockedError, openDatabase, resealSecrets } from '@gateway/store-postgres';
import { fail, type CliIo } from '@gateway/cli';
import type { GatewayEnv } from './gateway-env';

/**
 * `npx gateway secrets:reseal`: after GATEWAY_SECRET changed, with the old one in GATEWAY_SECRET_PREVIOUS, seals every
 * value the old one sealed (admin-written provider keys, webhook signing secrets) anew under GATEWAY_SECRET, in one
 * transaction. Prints what it did and names what neither secret opens (exit 1 then). Never prints a value.
 */
export async function resealCommand(env: GatewayEnv, io: CliIo): Promise<number> {
  if (!env.secret) return fail(io, 'GATEWAY_SECRET (at least 16 characters) must be set: values are re-sealed under it.');
  let db;
  try {
    db = await openDatabase({
      databaseUrl: env.databaseUrl,
      dataDir: env.dataDir,
      schema: env.databaseSchema,
      sealSecret: env.secret,
    });
  } catch (e) {
    if (e instanceof DataDirLockedError)
      return fail(io, `${e.message} The embedded store has one writer: stop the gateway, run secrets:reseal, start it again.`);
    throw e;
  }
  try {
    const found = await resealSecrets(db.knex, { current: env.secret, previous: env.previousSecret });
    io.out(`re-sealed ${found.previous.length} value(s) under GATEWAY_SECRET; ${found.current.length} already were`);
    for (const what of found.unreadable) io.err(`cannot be opened with GATEWAY_SECRET or GATEWAY_SECRET_PREVIOUS: ${what}`);
    if (found.unreadable.length) return 1;
    if (found.previous.length) io.out('GATEWAY_SECRET_PREVIOUS may be removed once every instance runs with this GATEWAY_SECRET.');
    return 0;
  } finally {
    await db.close();
  }
}
