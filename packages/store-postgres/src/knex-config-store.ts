import type { Knex } from 'knex';
import { isSealed, seal, unseal } from './secret-box';

export type ConfigKind = 'provider' | 'model' | 'group';

export interface ConfigEntry {
  kind: ConfigKind;
  id: string;
  /** null: deleted through the admin API */
  body: Record<string, unknown> | null;
  source: 'file' | 'admin';
}

/** Stands in the database for a literal key of the config file: the file holds the key, the database never does. */
export const FILE_KEY_MARKER = '(config file)';

/** A literal key sent through the admin API while no GATEWAY_SECRET is set: it cannot be stored safely. */
export class SecretRequiredError extends Error {}

const json = (v: unknown) => (v === null || v === undefined ? null : typeof v === 'string' ? JSON.parse(v) : v);

/**
 * Providers, models and groups in the database, so every instance sees admin changes. The config file seeds
 * `file` rows at every start; `admin` rows (including tombstones) override them and persist. A version counter
 * tells instances when to reload.
 */
export class KnexConfigStore {
  /** this instance's config-file keys, by provider id (every instance reads the same file) */
  private readonly fileKeys = new Map<string, string>();

  constructor(
    private readonly db: Knex,
    private readonly opts: { secret?: string } = {},
  ) {}

  /**
   * A provider's apiKey as it may rest: `env:NAME` stays the reference, a file key becomes the marker,
   * an admin key is sealed (refused without a secret).
   */
  private atRest(kind: ConfigKind, id: string, body: Record<string, unknown>, source: ConfigEntry['source']): Record<string, unknown> {
    const key = body.apiKey;
    if (kind !== 'provider' || typeof key !== 'string' || key.startsWith('env:') || isSealed(key)) return body;
    if (source === 'file') {
      this.fileKeys.set(id, key);
      return { ...body, apiKey: FILE_KEY_MARKER };
    }
    if (!this.opts.secret) throw new SecretRequiredError('a literal apiKey needs GATEWAY_SECRET to be stored encrypted');
    return { ...body, apiKey: seal(key, this.opts.secret) };
  }

  /** The reverse of atRest, in memory only. Legacy clear keys (stored before sealing existed) are read as they are. */
  private inMemory(kind: ConfigKind, id: string, body: Record<string, unknown> | null): Record<string, unknown> | null {
    const key = body?.apiKey;
    if (!body || kind !== 'provider' || typeof key !== 'string') return body;
    if (key === FILE_KEY_MARKER) {
      const { apiKey: _marker, ...rest } = body;
      const fileKey = this.fileKeys.get(id);
      return fileKey === undefined ? rest : { ...rest, apiKey: fileKey };
    }
    return isSealed(key) ? { ...body, apiKey: unseal(key, this.opts.secret) } : body;
  }

  async version(): Promise<number> {
    const row = await this.db('config_version').where({ id: 1 }).first();
    return Number(row?.version ?? 0);
  }

  async entries(): Promise<ConfigEntry[]> {
    const rows = await this.db('config_entries').orderBy('seq');
    return rows.map((r: Record<string, any>) => ({
      kind: r.kind,
      id: r.id,
      body: this.inMemory(r.kind, r.id, json(r.body)),
      source: r.source,
    }));
  }

  /** Replaces the file rows with the file's entries (admin rows win); bumps the version when anything changed. */
  async syncFile(entries: Array<Omit<ConfigEntry, 'source'>>): Promise<void> {
    const resting = entries.map((e) => ({ ...e, body: e.body && this.atRest(e.kind, e.id, e.body, 'file') }));
    await this.db.transaction(async (trx) => {
      await trx.raw('select version from config_version where id = 1 for update');
      const before = JSON.stringify(
        await trx('config_entries').where({ source: 'file' }).orderBy(['kind', 'id']).select('kind', 'id', 'body'),
      );
      // keep existing rows (and their place in the order); drop file rows the file no longer has
      const keep = new Set(resting.map((e) => `${e.kind}\u0000${e.id}`));
      const fileRows = await trx('config_entries').where({ source: 'file' }).select('kind', 'id');
      for (const r of fileRows)
        if (!keep.has(`${r.kind}\u0000${r.id}`)) await trx('config_entries').where({ kind: r.kind, id: r.id, source: 'file' }).delete();
      for (const e of resting) {
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
    const resting = body && this.atRest(kind, id, body, 'admin');
    return this.db.transaction(async (trx) => {
      await trx('config_entries')
        .insert({ kind, id, body: resting === null ? null : JSON.stringify(resting), source: 'admin', updated_at: trx.fn.now() })
        .onConflict(['kind', 'id'])
        .merge(['body', 'source', 'updated_at']);
      const [row] = await trx('config_version').where({ id: 1 }).increment('version', 1).returning('version');
      return Number(row.version);
    });
  }
}
