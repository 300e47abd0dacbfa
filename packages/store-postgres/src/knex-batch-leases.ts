import type { Knex } from 'knex';
import { succeeded, UNRUN, type ClaimedLine, type LineOutcome } from '@gateway/core';
import { json } from './row-values';

/**
 * The leases of batch lines (migration 037): claiming due lines, keeping the leases alive, ending a line whose runner
 * died mid-call as `interrupted`, and a runner's answer or deferral. Every change is a compare-and-set on the lease
 * (status and owner), so two runners never both answer a line; one account's running lines are counted under a
 * transaction-scoped advisory lock on the account, so runners on every instance together never run more than
 * `perAccount` of them.
 */
export class KnexBatchLeases {
  constructor(private readonly db: Knex) {}

  async claim(o: { owner: string; now: Date; leaseMs: number; limit: number; perAccount: number }): Promise<ClaimedLine[]> {
    await this.recoverLeases(o.now);
    const until = new Date(o.now.getTime() + o.leaseMs);
    const accounts: Array<{ account_id: string }> = await this.db('batch_lines as l')
      .join('batches as b', 'b.id', 'l.batch_id')
      .distinct('l.account_id')
      .where('l.status', 'pending')
      .andWhere('b.status', 'in_progress')
      .andWhere('b.expires_at', '>', o.now)
      .andWhere((w) => void w.whereNull('l.not_before').orWhere('l.not_before', '<=', o.now))
      .limit(o.limit);
    const claimed: ClaimedLine[] = [];
    for (const { account_id: account } of accounts) {
      if (claimed.length >= o.limit) break;
      const rows = await this.db.transaction(async (trx): Promise<Array<Record<string, any>>> => {
        await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`batch-lines:${account}`]);
        const running = await trx('batch_lines').count({ n: '*' }).where({ account_id: account, status: 'running' }).first();
        const room = Math.min(o.perAccount - Number(running?.n ?? 0), o.limit - claimed.length);
        if (room <= 0) return [];
        const due = trx('batch_lines as l')
          .join('batches as b', 'b.id', 'l.batch_id')
          .select('l.batch_id', 'l.line')
          .where({ 'l.account_id': account, 'l.status': 'pending', 'b.status': 'in_progress' })
          .andWhere('b.expires_at', '>', o.now)
          .andWhere((w) => void w.whereNull('l.not_before').orWhere('l.not_before', '<=', o.now))
          .orderBy([{ column: 'l.batch_id' }, { column: 'l.line' }])
          .limit(room)
          .forUpdate('l')
          .skipLocked();
        return await trx('batch_lines as t')
          .update({ status: 'running', lease_owner: o.owner, lease_until: until, attempts: trx.raw('t.attempts + 1'), not_before: null })
          .whereIn(['t.batch_id', 't.line'], due)
          .returning(['t.batch_id', 't.line', 't.custom_id', 't.body', 't.attempts', 't.account_id']);
      });
      if (!rows.length) continue;
      const batches = new Map<string, { key_id: string; endpoint: string }>();
      const ids = [...new Set(rows.map((r) => String(r.batch_id)))];
      for (const b of await this.db('batches').select('id', 'key_id', 'endpoint').whereIn('id', ids)) batches.set(b.id, b);
      for (const r of rows) {
        const b = batches.get(r.batch_id)!;
        claimed.push({
          batchId: r.batch_id,
          line: Number(r.line),
          customId: r.custom_id,
          body: json(r.body)!,
          attempts: Number(r.attempts),
          accountId: r.account_id,
          keyId: b.key_id,
          endpoint: b.endpoint,
        });
      }
    }
    return claimed.sort((x, y) => (x.batchId === y.batchId ? x.line - y.line : x.batchId < y.batchId ? -1 : 1));
  }

  /** Lines whose runner's lease ran out (it died mid-call): answered `interrupted`, never sent again. */
  private async recoverLeases(now: Date): Promise<void> {
    await this.db('batch_lines')
      .where('status', 'running')
      .andWhere('lease_until', '<', now)
      .update({
        status: 'done',
        ok: false,
        outcome: JSON.stringify(UNRUN.interrupted),
        lease_owner: null,
        lease_until: null,
      });
  }

  async extend(owner: string, lines: ReadonlyArray<Pick<ClaimedLine, 'batchId' | 'line'>>, until: Date): Promise<void> {
    if (!lines.length) return;
    await this.db('batch_lines')
      .whereIn(
        ['batch_id', 'line'],
        lines.map((l) => [l.batchId, l.line]),
      )
      .andWhere({ status: 'running', lease_owner: owner })
      .update({ lease_until: until });
  }

  async finish(owner: string, l: Pick<ClaimedLine, 'batchId' | 'line'>, outcome: LineOutcome): Promise<boolean> {
    const rows = await this.db('batch_lines')
      .where({ batch_id: l.batchId, line: l.line, status: 'running', lease_owner: owner })
      .update({ status: 'done', outcome: JSON.stringify(outcome), ok: succeeded(outcome), lease_owner: null, lease_until: null })
      .returning('line');
    return rows.length > 0;
  }

  async defer(owner: string, l: Pick<ClaimedLine, 'batchId' | 'line'>, notBefore: Date): Promise<void> {
    // not a send: the attempt it was counted as is given back
    await this.db('batch_lines')
      .where({ batch_id: l.batchId, line: l.line, status: 'running', lease_owner: owner })
      .update({
        status: 'pending',
        not_before: notBefore,
        attempts: this.db.raw('greatest(attempts - 1, 0)'),
        lease_owner: null,
        lease_until: null,
      });
  }
}
