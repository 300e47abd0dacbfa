import type { Knex } from 'knex';
import * as m001 from './001-foundation';
import * as m002 from './002-responses';
import * as m003 from './003-video-worker';
import * as m004 from './004-admin';
import * as m005 from './005-upstream-request-id';
import * as m006 from './006-responses-retention';
import * as m007 from './007-task-deployment';
import * as m010 from './010-key-ids';
import * as m011 from './011-config-import';
import * as m012 from './012-key-settings-budgets';
import * as m013 from './013-content-store';
import * as m014 from './014-usage-cache-write';
import * as m015 from './015-webhooks';
import * as m016 from './016-usage-delivered';
import * as m017 from './017-key-roles';
import * as m018 from './018-audit-log';
import * as m019 from './019-usage-row-ids';
import * as m020 from './020-usage-indexes';
import * as m021 from './021-webhook-fairness';
import * as m022 from './022-task-inputs';
import * as m023 from './023-task-deployment-required';
import * as m024 from './024-sso-sessions';
import * as m025 from './025-sso-logins';
import * as m027 from './027-key-task-scope';
import * as m028 from './028-account-alerts';
import * as m029 from './029-narrowed-keys-members';
import * as m030 from './030-sso-session-claims';
import * as m031 from './031-audit-integrity';
import * as m032 from './032-current-forms';
import * as m033 from './033-conversation-kind';
import * as m034 from './034-task-insert-notify';
import * as m035 from './035-usage-units';
import * as m036 from './036-files';
import * as m037 from './037-batches';
import * as m041 from './041-mcp';
import * as m038 from './038-response-cache';
import * as m039 from './039-guardrails';
import * as m042 from './042-mcp-servers';
import * as m043 from './043-usage-rollup-job';

/** What a migration may need besides the database. */
export interface MigrationContext {
  /** GATEWAY_SECRET: seals provider credentials an earlier release stored unencrypted (032) */
  sealSecret?: string;
}

interface Migration {
  up(knex: Knex, ctx: MigrationContext): Promise<void>;
  down(knex: Knex): Promise<void>;
}

/** Append-only, in order. Compiled into the code so tsx, jest and the CLI all see the same list. */
const MIGRATIONS: Array<[string, Migration]> = [
  ['001-foundation', m001],
  ['002-responses', m002],
  ['003-video-worker', m003],
  ['004-admin', m004],
  ['005-upstream-request-id', m005],
  ['006-responses-retention', m006],
  ['007-task-deployment', m007],
  ['010-key-ids', m010],
  ['011-config-import', m011],
  ['012-key-settings-budgets', m012],
  ['013-content-store', m013],
  ['014-usage-cache-write', m014],
  ['015-webhooks', m015],
  ['016-usage-delivered', m016],
  ['017-key-roles', m017],
  ['018-audit-log', m018],
  ['019-usage-row-ids', m019],
  ['020-usage-indexes', m020],
  ['021-webhook-fairness', m021],
  ['022-task-inputs', m022],
  ['023-task-deployment-required', m023],
  ['024-sso-sessions', m024],
  ['025-sso-logins', m025],
  ['027-key-task-scope', m027],
  ['028-account-alerts', m028],
  ['029-narrowed-keys-members', m029],
  ['030-sso-session-claims', m030],
  ['031-audit-integrity', m031],
  ['032-current-forms', m032],
  ['033-conversation-kind', m033],
  ['034-task-insert-notify', m034],
  ['035-usage-units', m035],
  ['036-files', m036],
  ['037-batches', m037],
  ['038-response-cache', m038],
  ['039-guardrails', m039],
  ['041-mcp', m041],
  ['042-mcp-servers', m042],
  ['043-usage-rollup-job', m043],
];

export function migrationSourceWith(ctx: MigrationContext): Knex.MigrationSource<string> {
  return {
    getMigrations: async () => MIGRATIONS.map(([name]) => name),
    getMigrationName: (name) => name,
    getMigration: async (name) => {
      const m = MIGRATIONS.find(([n]) => n === name)![1];
      return { up: (knex: Knex) => m.up(knex, ctx), down: (knex: Knex) => m.down(knex) };
    },
  };
}

/** The list without a context: which migrations ran, and tests of migrations that need none. */
export const migrationSource = migrationSourceWith({});
