import type { Knex } from 'knex';
import {
  credentialHeaders,
  mapCredentialHeaders,
  SecretRequiredError,
  type AuditContext,
  type CatalogueEntry,
  type CatalogueEntryKind,
} from '@gateway/core';
import { canonicalJson, catalogueDiff, sha256Hex, type CatalogueRow } from './config-import-diff';
import { isSealed, seal, unseal } from './secret-box';
import { writeAuditRecord } from './knex-audited-changes';
import { json } from './row-values';

export type ConfigKind = CatalogueEntryKind;
export type ConfigEntry = CatalogueEntry;

/** Stands in the database for a literal key of the config file: the file holds the key, the database never does. */
export const FILE_KEY_MARKER = '(config file)';

/** The file's settings that are not entries: stored with the catalogue so every instance applies the same. */
export interface CatalogueSettings {
  limits?: Record<string, unknown>;
  circuitBreaker?: Record<string, unknown>;
  /**
   * The file's guardrails as last imported (opaque to the store), kept only to audit a change: each instance runs its
   * own file's. Not part of the import's hash, so a change of guardrails alone does not replace the catalogue.
   */
  guardrails?: unknown;
}

/** What a start-up's import did; the counts compare the catalogue served before and after. */
export interface FileImport {
  /** false: this file's content was already imported (by an earlier start or another instance) */
  imported: boolean;
  hash: string;
  previousHash: string | null;
  added: number;
  changed: number;
  removed: number;
  /** admin rows (edits and deletions) the import replaced */
  adminEditsReplaced: number;
}

/**
 * Providers, models and groups in the database, so every instance serves the same catalogue. The config file seeds
 * it when its content changed (`importFile`); `admin` rows (including tombstones) persist until the next import.
 * A version counter tells instances when to reload.
 */
export class KnexConfigStore {
  /** this instance's config-file keys, by provider id (every instance reads the same file) */
  private readonly fileKeys = new Map<string, string>();
  /** this instance's config-file header values (credentials like keys), by provider id */
  private readonly fileHeaders = new Map<string, Record<string, string>>();

  /** providers whose sealed apiKey or header neither secret opens: served without it, named in a start-up warning */
  readonly unreadableKeys = new Set<string>();

  /** secret: GATEWAY_SECRET; previousSecret: GATEWAY_SECRET_PREVIOUS, which still opens what it sealed (rotation) */
  constructor(
    private readonly db: Knex,
    private readonly opts: { secret?: string; previousSecret?: string } = {},
  ) {}

  /** A literal credential sent through the admin API, sealed (refused without a secret). */
  private sealed(value: string, field: string): string {
    if (isSealed(value)) return value;
    if (!this.opts.secret) throw new SecretRequiredError(field);
    return seal(value, this.opts.secret);
  }

  /**
   * A provider's credentials as they may rest: an apiKey `env:NAME` stays the reference; a file's literal key and
   * header values (provider-credentials.ts) become the marker, kept in this instance's memory; an admin's are sealed.
   */
  private atRest(kind: ConfigKind, id: string, body: Record<string, unknown>, source: ConfigEntry['source']): Record<string, unknown> {
    if (kind !== 'provider') return body;
    const key = body.apiKey;
    let out = body;
    if (typeof key === 'string' && !key.startsWith('env:') && !isSealed(key)) {
      if (source === 'file') this.fileKeys.set(id, key);
      out = { ...out, apiKey: source === 'file' ? FILE_KEY_MARKER : this.sealed(key, 'apiKey') };
    }
    if (source === 'file') {
      this.fileHeaders.set(id, credentialHeaders(out));
      return mapCredentialHeaders(out, () => FILE_KEY_MARKER);
    }
    return mapCredentialHeaders(out, (value, name) => this.sealed(value, `options.headers.${name}`));
  }

  /** One credential opened: the file's (by marker), an `env:NAME` reference as it is, or a sealed one. */
  private opened(value: string, fromFile: string | undefined, unreadable: () => void): string | undefined {
    if (value === FILE_KEY_MARKER) return fromFile;
    if (value.startsWith('env:')) return value;
    try {
      return unseal(value, [this.opts.secret, this.opts.previousSecret]);
    } catch {
      // served without it (its calls fail upstream), and the start-up check names the provider
      unreadable();
      return undefined;
    }
  }

  /** The reverse of atRest, in memory only. */
  private inMemory(kind: ConfigKind, id: string, body: Record<string, unknown> | null): Record<string, unknown> | null {
    if (!body || kind !== 'provider') return body;
    let unreadable = false;
    const onUnreadable = () => void (unreadable = true);
    const { apiKey, ...rest } = body;
    const key = typeof apiKey === 'string' ? this.opened(apiKey, this.fileKeys.get(id), onUnreadable) : apiKey;
    const fileHeaders = this.fileHeaders.get(id) ?? {};
    const clear = mapCredentialHeaders(key === undefined ? rest : { ...body, apiKey: key }, (value, name) =>
      this.opened(value, fileHeaders[name], onUnreadable),
    );
    if (unreadable) this.unreadableKeys.add(id);
    else this.unreadableKeys.delete(id);
    return clear;
  }

  /** The version (moves on every change) and the settings of the last import (null before the first). */
  async state(): Promise<{ version: number; settings: CatalogueSettings | null; fileHash: string | null }> {
    const row = await this.db('config_version').where({ id: 1 }).first();
    return { version: Number(row?.version ?? 0), settings: json<CatalogueSettings>(row?.settings), fileHash: row?.file_hash ?? null };
  }

  async entries(): Promise<ConfigEntry[]> {
    const rows = await this.db('config_entries').orderBy('seq');
    return rows.map((r: Record<string, any>) => ({
      kind: r.kind,
      id: r.id,
      body: this.inMemory(r.kind, r.id, json<Record<string, unknown>>(r.body)),
      source: r.source,
    }));
  }

  /**
   * Imports the config file's catalogue when its content hash differs from the last import's; otherwise leaves the
   * database as it is (admin changes since then included). An import replaces the catalogue, admin rows too, in one
   * transaction. Instances starting together take turns on the version row's lock: the first imports, the others
   * find its hash and import nothing. The file's literal keys are remembered in memory either way. The hash covers
   * the entries and settings in canonical form, so key order, spacing and the file's `keys` do not count. An import
   * writes its audit record (`config.import`, authored by the file: its path) in the same transaction.
   */
  async importFile(file: {
    entries: Array<Omit<ConfigEntry, 'source'>>;
    settings: CatalogueSettings;
    /** the file's path, the author of the import's audit record */
    source?: string;
    /** the file's guardrails (definitions and where they run): a change writes a `guardrails.import` audit record */
    guardrails?: unknown;
  }): Promise<FileImport> {
    const resting = file.entries.map((e) => ({ ...e, body: e.body && this.atRest(e.kind, e.id, e.body, 'file') }));
    // the hash of what the database would hold (a literal key as its marker): nothing stored derives from a secret
    const hash = sha256Hex(canonicalJson({ entries: resting, settings: file.settings }));
    return this.db.transaction(async (trx) => {
      const current = await trx('config_version').where({ id: 1 }).forUpdate().first();
      const previousHash: string | null = current?.file_hash ?? null;
      const outcome = { hash, previousHash, added: 0, changed: 0, removed: 0, adminEditsReplaced: 0 };
      const author: AuditContext = { actor: { type: 'config_file', id: file.source ?? '(config file)' }, requestId: null, address: null };
      const { guardrails: storedGuardrails, ...storedSettings } = json<CatalogueSettings>(current?.settings) ?? {};
      const guardrails = file.guardrails === undefined ? {} : { guardrails: file.guardrails };
      if (file.guardrails !== undefined && canonicalJson(storedGuardrails ?? null) !== canonicalJson(file.guardrails)) {
        await writeAuditRecord(
          trx,
          author,
          {
            action: 'guardrails.import',
            target: { type: 'config', id: 'guardrails' },
            accountId: null,
            before: storedGuardrails ?? null,
            after: file.guardrails,
          },
          new Date(),
        );
        if (previousHash === hash)
          await trx('config_version')
            .where({ id: 1 })
            .update({ settings: JSON.stringify({ ...storedSettings, ...guardrails }) });
      }
      if (previousHash === hash) return { imported: false, ...outcome };
      const before: Array<CatalogueRow & { source: string }> = (await trx('config_entries').select('kind', 'id', 'body', 'source')).map(
        (r: Record<string, any>) => ({ kind: r.kind, id: r.id, source: r.source, body: json(r.body) }),
      );
      // A catalogue from before hashes were kept had admin rows win over the file: the upgrade's import keeps them.
      const keepAdmin = previousHash === null && before.length > 0;
      const admin = before.filter((r) => r.source === 'admin');
      if (keepAdmin) await trx('config_entries').where({ source: 'file' }).delete();
      else await trx('config_entries').delete();
      const keptIds = new Set(keepAdmin ? admin.map((r) => `${r.kind}:${r.id}`) : []);
      const rows = resting
        .filter((e) => !keptIds.has(`${e.kind}:${e.id}`))
        .map((e) => ({ kind: e.kind, id: e.id, body: JSON.stringify(e.body), source: 'file' }));
      // one row at a time keeps seq in the file's order (the catalogue lists models as the file does)
      for (const row of rows) await trx('config_entries').insert(row);
      await trx('config_version')
        .where({ id: 1 })
        .update({
          file_hash: hash,
          file_imported_at: trx.fn.now(),
          settings: JSON.stringify({ ...file.settings, ...guardrails }),
          version: trx.raw('version + 1'),
        });
      const after = [...resting, ...(keepAdmin ? admin : [])]; // later rows win, as kept admin rows do
      const result = { imported: true, ...outcome, ...catalogueDiff(before, after), adminEditsReplaced: keepAdmin ? 0 : admin.length };
      await writeAuditRecord(
        trx,
        author,
        {
          action: 'config.import',
          target: { type: 'config', id: 'catalogue' },
          accountId: null,
          before: { file_hash: previousHash, settings: current?.settings == null ? null : storedSettings },
          after: {
            file_hash: hash,
            settings: file.settings,
            added: result.added,
            changed: result.changed,
            removed: result.removed,
            admin_edits_replaced: result.adminEditsReplaced,
          },
        },
        new Date(),
      );
      return result;
    });
  }

  /** An admin write (body null deletes); returns the new version. `within`: the audited change's transaction. */
  async put(kind: ConfigKind, id: string, body: Record<string, unknown> | null, within?: Knex.Transaction): Promise<number> {
    const resting = body && this.atRest(kind, id, body, 'admin');
    return (within ?? this.db).transaction(async (trx) => {
      await trx('config_entries')
        .insert({ kind, id, body: resting === null ? null : JSON.stringify(resting), source: 'admin', updated_at: trx.fn.now() })
        .onConflict(['kind', 'id'])
        .merge(['body', 'source', 'updated_at']);
      const [row] = await trx('config_version').where({ id: 1 }).increment('version', 1).returning('version');
      return Number(row.version);
    });
  }
}
