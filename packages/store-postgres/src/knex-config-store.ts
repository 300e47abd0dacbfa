import type { Knex } from 'knex';

export type ConfigKind = 'provider' | 'model' | 'group';

export interface ConfigEntry {
  kind: ConfigKind;
  id: string;
  /** null: deleted through the admin API */
  body: Record<string, unknown> | null;
  source: 'file' | 'admin';
}

const json = (v: unknown) => (v === null || v === undefined ? null : typeof v === 'string' ? JSON.parse(v) : v);

/**
 * Providers, models and groups in the database, so every instance sees admin changes. The config file seeds
 * `file` rows at every start; `admin` rows (including tombstones) override them and persist. A version counter
 * tells instances when to reload.
 */
export class KnexConfigStore {
  constructor(private readonly db: Knex) {}

  async version(): Promise<number> {
    const row = await this.db('config_version').where({ id: 1 }).first();
    return Number(row?.version ?? 0);
  }

  async entries(): Promise<ConfigEntry[]> {
    const rows = await this.db('config_entries').orderBy('seq');
    return rows.map((r: Record<string, any>) => ({ kind: r.kind, id: r.id, body: json(r.body), source: r.source }));
  }

  /** Replaces the file rows with the file's entries (admin rows win); bumps the version when anything changed. */
  async syncFile(entries: Array<Omit<ConfigEntry, 'source'>>): Promise<void> {
    await this.db.transaction(async (trx) => {
      await trx.raw('select version from config_version where id = 1 for update');
      const before = JSON.stringify(
        await trx('config_entries').where({ source: 'file' }).orderBy(['kind', 'id']).select('kind', 'id', 'body'),
      );
      // keep existing rows (and their place in the order); drop file rows the file no longer has
      const keep = new Set(entries.map((e) => `${e.kind}\u0000${e.id}`));
      const fileRows = await trx('config_entries').where({ source: 'file' }).select('kind', 'id');
      for (const r of fileRows)
        if (!keep.has(`${r.kind}\u0000${r.id}`)) await trx('config_entries').where({ kind: r.kind, id: r.id, source: 'file' }).delete();
      for (const e of entries) {
        await trx('config_entries')
          .insert({ kind: e.kind, id: e.id, body: JSON.stringify(e.body), source: 'file' })
          .onConflict(['kind', 'id'])
          .merge({ body: JSON.stringify(e.body) })
          .where('config_entries.source', 'file'); // admin rows win
      }
      const after = JSON.stringify(
        await trx('config_entries').where({ source: 'file' }).orderBy(['kind', 'id']).select('kind', 'id', 'body'),
      );
      if (before !== after) await trx('config_version').where({ id: 1 }).increment('version', 1);
    });
  }

  /** An admin write (body null deletes); returns the new version. */
  async put(kind: ConfigKind, id: string, body: Record<string, unknown> | null): Promise<number> {
    return this.db.transaction(async (trx) => {
      await trx('config_entries')
        .insert({ kind, id, body: body === null ? null : JSON.stringify(body), source: 'admin', updated_at: trx.fn.now() })
        .onConflict(['kind', 'id'])
        .merge(['body', 'source', 'updated_at']);
      const [row] = await trx('config_version').where({ id: 1 }).increment('version', 1).returning('version');
      return Number(row.version);
    });
  }
}
