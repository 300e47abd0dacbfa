import type { Knex } from 'knex';
import {
  newKeyId,
  type Account,
  type ApiKeyRecord,
  type KeyChangeRepository,
  type KeyRole,
  type KeySettings,
  type NewKey,
  type TaskScope,
} from '@gateway/core';

interface KeyRow {
  id: string;
  account_id: string;
  group_name: string;
  key_hash: string;
  key_prefix: string;
  role: KeyRole;
  created_at: Date;
  revoked_at: Date | null;
  name: string | null;
  expires_at: Date | null;
  models: string[] | string | null;
  mcp?: string[] | string | null;
  requests_per_minute: number | null;
  tokens_per_minute: number | null;
  concurrent_streams: number | null;
  tasks_scope?: TaskScope;
  guardrails?: string[] | string | null;
}

const toKey = (r: KeyRow): ApiKeyRecord => ({
  id: r.id,
  accountId: r.account_id,
  group: r.group_name,
  role: r.role,
  prefix: r.key_prefix,
  name: r.name ?? null,
  createdAt: new Date(r.created_at),
  revokedAt: r.revoked_at ? new Date(r.revoked_at) : null,
  expiresAt: r.expires_at ? new Date(r.expires_at) : null,
  models: r.models === null || r.models === undefined ? null : typeof r.models === 'string' ? JSON.parse(r.models) : r.models,
  mcp: r.mcp === null || r.mcp === undefined ? null : typeof r.mcp === 'string' ? JSON.parse(r.mcp) : r.mcp,
  limits: {
    requestsPerMinute: r.requests_per_minute ?? null,
    tokensPerMinute: r.tokens_per_minute ?? null,
    concurrentStreams: r.concurrent_streams ?? null,
  },
  tasks: r.tasks_scope ?? 'account',
  guardrails: jsonList(r.guardrails),
});

/** The columns of the settings given (absent ones are left out, so an update keeps them). */
function settingsColumns(s: Partial<KeySettings> & { role?: KeyRole }): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (s.role !== undefined) out.role = s.role;
  if (s.mcp !== undefined) out.mcp = s.mcp === null ? null : JSON.stringify(s.mcp);
  if (s.name !== undefined) out.name = s.name;
  if (s.expiresAt !== undefined) out.expires_at = s.expiresAt;
  if (s.tasks !== undefined) out.tasks_scope = s.tasks;
  if (s.models !== undefined) out.models = s.models === null ? null : JSON.stringify(s.models);
  if (s.guardrails !== undefined) out.guardrails = s.guardrails === null ? null : JSON.stringify(s.guardrails);
  if (s.limits) {
    out.requests_per_minute = s.limits.requestsPerMinute;
    out.tokens_per_minute = s.limits.tokensPerMinute;
    out.concurrent_streams = s.limits.concurrentStreams;
  }
  return out;
}

/** A jsonb list column (pg parses jsonb; PGlite may hand back its text). */
const jsonList = (v: string[] | string | null | undefined): string[] | null =>
  v === null || v === undefined ? null : typeof v === 'string' ? JSON.parse(v) : v;

const toAccount = (r: { id: string; name: string; created_at: Date }): Account => ({
  id: r.id,
  name: r.name,
  createdAt: new Date(r.created_at),
});

export class KnexKeyRepository implements KeyChangeRepository {
  constructor(private readonly db: Knex) {}

  async findKeyByHash(hash: string) {
    const r = await this.db<KeyRow>('api_keys').where({ key_hash: hash }).first();
    if (r) return { ...toKey(r), hash: r.key_hash };
    const old = await this.db('key_previous_secrets as p')
      .join('api_keys as k', 'k.id', 'p.key_id')
      .where('p.key_hash', hash)
      .first<KeyRow & { grace_until: Date }>('k.*', 'p.grace_until');
    return old ? { ...toKey(old), hash, graceUntil: new Date(old.grace_until) } : null;
  }

  async rotateKey(id: string, next: { hash: string; prefix: string }, graceUntil: Date): Promise<ApiKeyRecord | null> {
    const run = async (trx: Knex) => {
      const current = await trx<KeyRow>('api_keys').where({ id }).whereNull('revoked_at').forUpdate().first();
      if (!current) return null;
      // the replaced secret keeps working until graceUntil; authenticate refuses it from then on. The row stays after
      // that: it is how createKeyIfUnknown knows the old secret (a config-file key rotated away must not come back).
      await trx('key_previous_secrets').insert({ key_hash: current.key_hash, key_id: id, grace_until: graceUntil });
      await trx('api_keys').where({ id }).update({ key_hash: next.hash, key_prefix: next.prefix });
      return toKey((await trx<KeyRow>('api_keys').where({ id }).first())!);
    };
    return this.db.isTransaction ? run(this.db) : this.db.transaction(run);
  }

  async createAccount(id: string, name?: string): Promise<Account> {
    return (await this.createAccountIfMissing(id, name)) ?? (await this.getAccount(id))!;
  }

  async renameAccount(id: string, name: string | null): Promise<Account | null> {
    await this.db('accounts')
      .where({ id })
      .update({ name: name ?? id });
    return this.getAccount(id);
  }

  async getAccount(id: string): Promise<Account | null> {
    const r = await this.db('accounts').where({ id }).first();
    return r ? toAccount(r) : null;
  }

  async listAccounts(): Promise<Account[]> {
    return (await this.db('accounts').orderBy('created_at')).map(toAccount);
  }

  async createKey(input: NewKey): Promise<ApiKeyRecord> {
    await this.insertKey(input);
    return toKey((await this.db<KeyRow>('api_keys').where({ key_hash: input.hash }).first())!);
  }

  /** The id of the row inserted; none when a key already has this hash. */
  private async insertKey(input: NewKey): Promise<Array<{ id: string }>> {
    return this.db('api_keys')
      .insert({
        id: newKeyId(),
        account_id: input.accountId,
        group_name: input.group,
        key_hash: input.hash,
        key_prefix: input.prefix,
        ...settingsColumns(input),
      })
      .onConflict('key_hash')
      .ignore()
      .returning('id');
  }

  /**
   * Creates the account unless it exists; null when it did. One insert decides, so of several instances bootstrapping
   * the same file exactly one is told it created the account (and writes its audit record).
   */
  async createAccountIfMissing(id: string, name?: string): Promise<Account | null> {
    const made = await this.db('accounts')
      .insert({ id, name: name ?? id })
      .onConflict('id')
      .ignore()
      .returning('id');
    return made.length ? this.getAccount(id) : null;
  }

  /**
   * Creates the key unless its hash is known: the current secret of a key (revoked ones too) or one it had before a
   * rotation (`key_previous_secrets` keeps them after their grace ends, so an old secret never becomes a new key).
   * null when known; as with createAccountIfMissing, one insert decides between concurrent callers.
   */
  async createKeyIfUnknown(input: NewKey): Promise<ApiKeyRecord | null> {
    if (await this.db('key_previous_secrets').where({ key_hash: input.hash }).first()) return null;
    const [made] = await this.insertKey(input);
    return made ? this.getKey(made.id) : null;
  }

  async getKey(id: string): Promise<ApiKeyRecord | null> {
    const r = await this.db<KeyRow>('api_keys').where({ id }).first();
    return r ? toKey(r) : null;
  }

  async updateKey(id: string, patch: Partial<KeySettings> & { role?: KeyRole }): Promise<ApiKeyRecord | null> {
    const columns = settingsColumns(patch);
    if (Object.keys(columns).length) await this.db('api_keys').where({ id }).update(columns);
    return this.getKey(id);
  }

  async listKeys(accountId?: string): Promise<ApiKeyRecord[]> {
    const q = this.db<KeyRow>('api_keys').orderBy('created_at');
    if (accountId) q.where({ account_id: accountId });
    return (await q).map(toKey);
  }

  /**
   * Keys of the account neither revoked nor expired. Inside a transaction it first locks the account's row, so two
   * creations in one account count one after the other and a cap on the count holds.
   */
  async countLiveKeys(accountId: string): Promise<number> {
    if (this.db.isTransaction) await this.db('accounts').where({ id: accountId }).forUpdate().first('id');
    const row = await this.db('api_keys')
      .where({ account_id: accountId })
      .whereNull('revoked_at')
      .whereRaw('(expires_at is null or expires_at > now())')
      .count<{ n: string | number }[]>({ n: '*' })
      .first();
    return Number(row?.n ?? 0);
  }

  async revokeKey(id: string): Promise<boolean> {
    const n = await this.db('api_keys').where({ id }).whereNull('revoked_at').update({ revoked_at: this.db.fn.now() });
    return n > 0;
  }
}
