import type { Knex } from 'knex';
import {
  maskSecrets,
  newId,
  type AuditChange,
  type AuditContext,
  type AuditedChanges,
  type AuditFilter,
  type AuditRecord,
  type ChangeStores,
} from '@gateway/core';
import { KnexKeyRepository } from './knex-key-repository';
import { KnexMcpServerStore } from './knex-mcp-server-store';
import { KnexQuotaRepository } from './knex-quota-repository';
import { KnexWebhookStore } from './knex-webhook-store';
import { columnsOf, json } from './row-values';

interface AuditRow {
  id: string;
  at: Date;
  actor_type: AuditRecord['actor']['type'];
  actor_id: string;
  action: string;
  target_type: string;
  target_id: string;
  account_id: string | null;
  before: unknown;
  after: unknown;
  request_id: string | null;
  address: string | null;
}

const masked = (v: unknown) => (v === undefined || v === null ? null : JSON.stringify(maskSecrets(v)));

const toRecord = (r: AuditRow): AuditRecord => ({
  ...columnsOf(r, ['id', 'action', 'accountId', 'requestId', 'address']),
  at: new Date(r.at),
  actor: { type: r.actor_type, id: r.actor_id },
  target: { type: r.target_type, id: r.target_id },
  before: json(r.before),
  after: json(r.after),
});

/** `type:id` filters both columns; a bare value filters the id. */
function whereRef(q: Knex.QueryBuilder, value: string, column: 'actor' | 'target') {
  const i = value.indexOf(':');
  if (i > 0) q.where({ [`${column}_type`]: value.slice(0, i), [`${column}_id`]: value.slice(i + 1) });
  else q.where(`${column}_id`, value);
}

/** One audit record, written in the change's own transaction (secrets masked). */
export async function writeAuditRecord(trx: Knex.Transaction, ctx: AuditContext, audit: AuditChange, at: Date): Promise<void> {
  await trx('audit_log').insert({
    id: newId('aud_'),
    at,
    actor_type: ctx.actor.type,
    actor_id: ctx.actor.id,
    action: audit.action,
    target_type: audit.target.type,
    target_id: audit.target.id,
    account_id: audit.accountId,
    before: masked(audit.before),
    after: masked(audit.after),
    request_id: ctx.requestId,
    address: ctx.address,
  });
}

/** The stores of one audited change; `trx` for the config store's writes. */
export interface KnexChangeStores extends ChangeStores {
  trx: Knex.Transaction;
}

/** The audit log on PostgreSQL/PGlite: each change and its record in one transaction (docs/admin.md, "Audit"). */
export class KnexAuditedChanges implements AuditedChanges {
  constructor(
    private readonly db: Knex,
    private readonly opts: {
      now?: () => Date;
      afterCommit?: () => void;
      /** seals webhook signing secrets and MCP header values written in a change (GATEWAY_SECRET; previous: GATEWAY_SECRET_PREVIOUS) */
      webhookSeal?: { sealKey?: string; previousSealKey?: string };
    } = {},
  ) {}

  async run<T>(ctx: AuditContext, change: (stores: KnexChangeStores) => Promise<{ result: T; audit: AuditChange | null }>) {
    const now = this.opts.now ?? (() => new Date());
    const result = await this.db.transaction(async (trx) => {
      const { result, audit } = await change({
        keys: new KnexKeyRepository(trx),
        quotas: new KnexQuotaRepository(trx, { now }),
        webhooks: new KnexWebhookStore(trx, this.opts.webhookSeal),
        mcpServers: new KnexMcpServerStore(trx, this.opts.webhookSeal),
        trx,
      });
      if (audit) await writeAuditRecord(trx, ctx, audit, now());
      return result;
    });
    this.opts.afterCommit?.();
    return result;
  }

  async list(f: AuditFilter): Promise<AuditRecord[]> {
    const q = this.db<AuditRow>('audit_log')
      .orderBy('seq', 'desc')
      .limit(Math.min(f.limit ?? 1000, 10_000));
    if (f.actor) whereRef(q, f.actor, 'actor');
    if (f.target) whereRef(q, f.target, 'target');
    if (f.action) q.where({ action: f.action });
    if (f.accountId) q.where({ account_id: f.accountId });
    if (f.from) q.where('at', '>=', f.from);
    if (f.to) q.where('at', '<', f.to);
    return (await q).map(toRecord);
  }
}
