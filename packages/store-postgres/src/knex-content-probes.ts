import type { Knex } from 'knex';
import type { ContentProbe, ContentProbes } from '@gateway/core';

/**
 * The content_probes table (migration 013): every instance on a shared database announces its probe and refreshes
 * it while it runs, so each can check that it reads the others' content. Freshness uses the database's clock, the one
 * clock all instances share.
 */
export class KnexContentProbes implements ContentProbes {
  constructor(private readonly knex: Knex) {}

  /** Writes or refreshes this instance's probe (seen now). */
  async announce(p: ContentProbe): Promise<void> {
    await this.knex('content_probes')
      .insert({ instance_id: p.instanceId, store: p.store, probe_key: p.probeKey, token: p.token, seen_at: this.knex.fn.now() })
      .onConflict('instance_id')
      .merge();
  }

  /** The other instances' probes refreshed within `freshMs`; older ones (instances gone without withdrawing) are dropped. */
  async others(instanceId: string, freshMs: number): Promise<ContentProbe[]> {
    const cutoff = this.knex.raw(`now() - (? * interval '1 millisecond')`, [freshMs]);
    await this.knex('content_probes').where('seen_at', '<', cutoff).delete();
    const rows = await this.knex('content_probes').whereNot({ instance_id: instanceId }).orderBy('instance_id');
    return rows.map((r) => ({ instanceId: r.instance_id, store: r.store, probeKey: r.probe_key, token: r.token }));
  }

  async withdraw(instanceId: string): Promise<void> {
    await this.knex('content_probes').where({ instance_id: instanceId }).delete();
  }
}
