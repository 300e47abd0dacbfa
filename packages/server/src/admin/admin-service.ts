import {
  credentialHeaders,
  GatewayError,
  generateApiKey,
  mapCredentialHeaders,
  hashApiKey,
  invalid,
  type Billing,
  type AuditChange,
  type ApiKeyRecord,
  type AuditContext,
  type BudgetPeriod,
  type KeyLimits,
  type TaskScope,
  type KeyRepository,
  type KeyRole,
  KEY_ROLES,
  type ModelCatalogue,
  type QuotaRepository,
} from '@gateway/core';
import {
  SecretRequiredError,
  type ConfigKind,
  type KnexAuditedChanges,
  type KnexChangeStores,
  type KnexConfigStore,
  KnexKeyRepository,
} from '@gateway/store-postgres';
import { ConfigError } from '../config';
import {
  keyView,
  KEY_SETTING_FIELDS,
  parseBudget,
  parseCreditLimit,
  parseKeySettings,
  parsePeriod,
  refuseUnknownFields,
  type KeyView,
} from './key-settings';
import type { ConfigRuntime } from './config-runtime';
import type { EnvReferencePolicy } from './env-reference-policy';

/** A key as it is, or would be after a write: what bounds are checked against. */
export interface BoundedKey {
  group: string;
  models: readonly string[] | null;
  limits: KeyLimits;
  expiresAt: Date | null;
  tasks: TaskScope;
  /** limit null: no limit */
  budget: { limit: number | null; period: BudgetPeriod | null };
}

export const boundedKey = (
  k: Pick<ApiKeyRecord, 'group' | 'models' | 'limits' | 'expiresAt' | 'tasks'>,
  budget: { limit: number | null; period: BudgetPeriod | null },
): BoundedKey => ({
  group: k.group,
  models: k.models,
  limits: k.limits,
  expiresAt: k.expiresAt,
  tasks: k.tasks ?? 'account',
  budget: { limit: budget.limit, period: budget.period },
});

/** Bounds a key write must stay within (self-service: what the caller's own key and the account were granted). */
export interface KeyBounds {
  /** the body as sent, before it is parsed (a bound is named before a parser's `invalid_*`) */
  asked(group: string, body: Record<string, unknown>): Promise<void>;
  /** the key as it would be written */
  key(k: BoundedKey): void;
}

/** MAX_KEYS_PER_ACCOUNT's default: live keys (neither revoked nor expired) of one account. */
export const DEFAULT_MAX_KEYS_PER_ACCOUNT = 500;

/** A new key without a role is a member: the least powers by default. */
function parseRole(v: unknown): KeyRole {
  if (v === undefined || v === null) return 'member';
  if (!KEY_ROLES.includes(v as KeyRole)) throw invalid('invalid_role', '"role" must be "admin" (account admin) or "member".', 'role');
  return v as KeyRole;
}

const NO_BUDGET = { limit: null, period: null };

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

const ID = /^[A-Za-z0-9][A-Za-z0-9_.:@-]{0,127}$/;

/** What an admin reads back instead of a key: keys are write-only. */
const SET = '(set)';

/** Secrets never leave through the admin API: a provider's apiKey and header values show as set or not. */
function redact(kind: ConfigKind, body: Record<string, unknown>): Record<string, unknown> {
  if (kind !== 'provider') return body;
  const headersSet = mapCredentialHeaders(body, () => SET);
  if (body.apiKey === undefined) return headersSet;
  const key = String(body.apiKey);
  return { ...headersSet, apiKey: key.startsWith('env:') ? key : SET };
}

/** How catalogue changes are checked and applied; the CLI's account and key commands pass one that refuses. */
export type CatalogueChanges = Pick<ConfigRuntime, 'validate' | 'reload'>;

/** Changes are audited (docs/admin.md, "Audit"): `changes` writes each with its record; `actor` says who made them. */
export interface AdminAudit {
  changes: KnexAuditedChanges;
  ctx: AuditContext;
}

/** The CLI's own actor when it writes to the database itself (through a running gateway it is the local token's). */
export const CLI_AUDIT_CONTEXT: AuditContext = { actor: { type: 'cli', id: 'cli' }, requestId: null, address: null };

function checkAccountName(name: unknown): asserts name is string {
  if (typeof name !== 'string' || name.length > 200)
    throw invalid('invalid_name', '"name" must be a string of at most 200 characters.', 'name');
}

const accountNotFound = (id: string) => new GatewayError('not_found', `No account "${id.slice(0, 64)}".`, { code: 'account_not_found' });

const keyTarget = (k: { id: string; accountId: string }) => ({ target: { type: 'key', id: k.id }, accountId: k.accountId });

/** What the admin API and the CLI do, once. */
export class AdminService {
  constructor(
    private readonly keys: KeyRepository,
    private readonly store: KnexConfigStore,
    private readonly runtime: CatalogueChanges,
    private readonly catalogue: ModelCatalogue,
    private readonly quotas: QuotaRepository,
    private readonly audit: AdminAudit,
    private readonly billing?: Billing,
    private readonly envPolicy?: EnvReferencePolicy,
    private readonly maxKeysPerAccount = DEFAULT_MAX_KEYS_PER_ACCOUNT,
  ) {}

  /** The same service, recording `ctx` as the author of its changes. */
  as(ctx: AuditContext): AdminService {
    return new AdminService(
      this.keys,
      this.store,
      this.runtime,
      this.catalogue,
      this.quotas,
      { ...this.audit, ctx },
      this.billing,
      this.envPolicy,
      this.maxKeysPerAccount,
    );
  }

  /** Runs a change and writes its audit record in the same transaction (none when `audit` is null). */
  private change<T>(fn: (stores: KnexChangeStores) => Promise<{ result: T; audit: AuditChange | null }>): Promise<T> {
    return this.audit.changes.run(this.audit.ctx, fn);
  }

  /** The audit log, newest first. */
  auditLog(filter: Parameters<KnexAuditedChanges['list']>[0]) {
    return this.audit.changes.list(filter);
  }

  async getQuota(accountId: string) {
    await this.getAccount(accountId);
    return this.quotas.get(accountId);
  }

  /** limit: credits, or null for unlimited; period: daily, monthly, null (never resets), undefined (kept). */
  async setQuota(accountId: string, limit: unknown, period?: unknown) {
    await this.getAccount(accountId);
    const credits = parseCreditLimit(limit, 'credit_limit');
    const p = period === undefined ? undefined : parsePeriod(period, 'period');
    const q = await this.change(async ({ quotas }) => {
      const before = await quotas.get(accountId);
      const after = await quotas.setLimit(accountId, credits, p);
      return { result: after, audit: { action: 'quota.update', target: { type: 'quota', id: accountId }, accountId, before, after } };
    });
    this.billing?.forget(accountId);
    return q;
  }

  listAccounts() {
    return this.keys.listAccounts();
  }

  async createAccount(id: unknown, name: unknown) {
    if (typeof id !== 'string' || !/^[A-Za-z0-9_.-]{1,64}$/.test(id))
      throw invalid('invalid_account_id', '"id" must be 1-64 letters, digits, _ . -', 'id');
    if (name !== undefined) checkAccountName(name);
    return this.change(async ({ keys }) => {
      const before = await keys.getAccount(id);
      const after = await keys.createAccount(id, name as string | undefined);
      // creating an account that exists changes nothing, so it writes no record
      const audit = before ? null : { action: 'account.create', target: { type: 'account', id }, accountId: id, before: null, after };
      return { result: after, audit };
    });
  }

  /** Renames an account (`name`: null gives it back its id as name); a change that changes nothing writes no record. */
  async updateAccount(id: string, body: unknown) {
    if (!isObject(body)) throw invalid('invalid_body', 'The change must be a JSON object.');
    refuseUnknownFields(body, ['name']);
    if (body.name !== null && body.name !== undefined) checkAccountName(body.name);
    const name = body.name as string | null | undefined;
    return this.change(async ({ keys }) => {
      const before = await keys.getAccount(id);
      if (!before) throw accountNotFound(id);
      const after = name === undefined ? before : (await keys.renameAccount(id, name))!;
      const audit =
        after.name === before.name ? null : { action: 'account.update', target: { type: 'account', id }, accountId: id, before, after };
      return { result: after, audit };
    });
  }

  async getAccount(id: string) {
    const a = await this.keys.getAccount(id);
    if (!a) throw accountNotFound(id);
    return a;
  }

  async listKeys(account?: string): Promise<KeyView[]> {
    return Promise.all((await this.keys.listKeys(account)).map(async (k) => keyView(k, await this.quotas.getKey(k.id))));
  }

  async getKey(id: string): Promise<KeyView> {
    return keyView(await this.keyRecord(id), await this.quotas.getKey(id));
  }

  /** Creates a key; the clear key is in the answer once and never stored. */
  async createKey(body: unknown, bounds?: KeyBounds): Promise<KeyView & { key: string }> {
    if (!isObject(body)) throw invalid('invalid_body', 'The key must be a JSON object.');
    refuseUnknownFields(body, ['account', 'group', 'role', ...KEY_SETTING_FIELDS]);
    const { account, group } = body;
    if (typeof account !== 'string') throw invalid('missing_account', '"account" is required.', 'account');
    await this.getAccount(account);
    const g = group ?? 'default';
    if (typeof g !== 'string' || !this.catalogue.hasGroup(g)) throw invalid('unknown_group', `No group ${JSON.stringify(g)}.`, 'group');
    await bounds?.asked(g, body);
    const role = parseRole(body.role);
    const settings = parseKeySettings(body, { group: g, catalogue: this.catalogue });
    const budget = body.budget === undefined ? undefined : parseBudget(body.budget);
    const limits = { requestsPerMinute: null, tokensPerMinute: null, concurrentStreams: null };
    const fresh = { models: null, limits, expiresAt: null, tasks: 'account' as const };
    bounds?.key(boundedKey({ group: g, ...fresh, ...settings }, budget ?? NO_BUDGET));
    const key = generateApiKey();
    const view = await this.change(async (s) => {
      await this.checkKeyCount(s, account);
      const record = await s.keys.createKey({
        accountId: account,
        group: g,
        role,
        hash: hashApiKey(key),
        prefix: key.slice(0, 7),
        ...settings,
      });
      const after = keyView(record, await this.setBudget(s, record, budget));
      return { result: after, audit: { action: 'key.create', ...keyTarget(record), before: null, after } };
    });
    this.afterKeyChange(account);
    return { ...view, key };
  }

  /** Changes a key's name, expiry, allowlist or limits; fields left out are kept. Within `bounds` before and after. */
  async updateKey(id: string, body: unknown, bounds?: KeyBounds): Promise<KeyView> {
    if (!isObject(body)) throw invalid('invalid_body', 'The change must be a JSON object.');
    refuseUnknownFields(body, ['role', ...KEY_SETTING_FIELDS]);
    const current = await this.keyRecord(id);
    const currentBudget = await this.checkExisting(current, bounds);
    await bounds?.asked(current.group, body);
    const settings = parseKeySettings(body, { group: current.group, catalogue: this.catalogue, current: current.limits });
    const role = body.role === undefined ? undefined : parseRole(body.role);
    const budget = body.budget === undefined ? undefined : parseBudget(body.budget);
    bounds?.key(boundedKey({ ...current, ...settings }, budget ?? currentBudget));
    const view = await this.change(async (s) => {
      const before = keyView(current, await s.quotas.getKey(id));
      const updated = (await s.keys.updateKey(id, { ...settings, ...(role ? { role } : {}) })) ?? current;
      const after = keyView(updated, await this.setBudget(s, updated, budget));
      return { result: after, audit: { action: 'key.update', ...keyTarget(current), before, after } };
    });
    this.afterKeyChange(current.accountId, id);
    return view;
  }

  /** A new secret for the key, answered once; the old one keeps working until `graceUntil`. */
  async rotateKey(id: string, graceUntil: Date, bounds?: KeyBounds): Promise<KeyView & { key: string }> {
    const current = await this.keyRecord(id);
    await this.checkExisting(current, bounds);
    const key = generateApiKey();
    const view = await this.change(async (s) => {
      const before = keyView(current, await s.quotas.getKey(id));
      const rotated = await s.keys.rotateKey(id, { hash: hashApiKey(key), prefix: key.slice(0, 7) }, graceUntil);
      if (!rotated) throw new GatewayError('not_found', `No active key "${id.slice(0, 64)}".`, { code: 'key_not_found' });
      const after = { ...keyView(rotated, await s.quotas.getKey(id)), previous_secret_until: graceUntil.toISOString() };
      return { result: after, audit: { action: 'key.rotate', ...keyTarget(current), before, after } };
    });
    this.afterKeyChange(current.accountId, id);
    return { ...view, key };
  }

  /**
   * Whoever is bound may touch only a key it could have created: otherwise a narrowed key could rotate a wider one
   * and take its new secret. Answers the key's budget.
   */
  private async checkExisting(current: ApiKeyRecord, bounds: KeyBounds | undefined) {
    const budget = await this.quotas.getKey(current.id);
    bounds?.key(boundedKey(current, budget));
    return budget;
  }

  /** Refuses a key beyond MAX_KEYS_PER_ACCOUNT, counted in the creating transaction (the account row is locked). */
  private async checkKeyCount(s: KnexChangeStores, accountId: string) {
    const live = await new KnexKeyRepository(s.trx).countLiveKeys(accountId);
    if (live >= this.maxKeysPerAccount)
      throw new GatewayError(
        'invalid_request',
        `Account "${accountId}" has ${live} live keys, the most it may have (MAX_KEYS_PER_ACCOUNT=${this.maxKeysPerAccount}); revoke one first.`,
        { code: 'exceeds_key_count' },
      );
  }

  private async setBudget(
    s: KnexChangeStores,
    k: { id: string; accountId: string },
    budget: { limit: number | null; period: BudgetPeriod | null } | undefined,
  ) {
    if (budget === undefined) return s.quotas.getKey(k.id);
    return s.quotas.setKeyLimit(k.id, budget.limit, budget.period);
  }

  /** Key writes went past the key cache and the billing cache: they must not serve the old values. */
  private afterKeyChange(accountId: string, keyId?: string) {
    (this.keys as { clear?: () => void }).clear?.();
    if (keyId) this.billing?.forget(accountId, keyId);
  }

  /** A key record (revoked ones too). */
  async keyRecord(id: string) {
    const k = await this.keys.getKey(id);
    if (!k) throw new GatewayError('not_found', `No key "${id.slice(0, 64)}".`, { code: 'key_not_found' });
    return k;
  }

  async revokeKey(id: string, bounds?: KeyBounds) {
    const current = await this.keys.getKey(id);
    if (current) await this.checkExisting(current, bounds);
    await this.change(async (s) => {
      if (!current || !(await s.keys.revokeKey(id)))
        throw new GatewayError('not_found', `No active key "${id.slice(0, 64)}".`, { code: 'key_not_found' });
      const before = keyView(current);
      const after = keyView((await s.keys.getKey(id))!);
      return { result: undefined, audit: { action: 'key.revoke', ...keyTarget(current), before, after } };
    });
    this.afterKeyChange(current!.accountId, id);
  }

  async listEntries(kind: ConfigKind) {
    return (await this.store.entries())
      .filter((e) => e.kind === kind && e.body !== null)
      .map((e) => ({ [kind === 'group' ? 'name' : 'id']: e.id, ...redact(kind, e.body!), source: e.source }));
  }

  /** Validates the change against the whole config, stores it, and applies it here at once (elsewhere on the next poll). */
  async putEntry(kind: ConfigKind, id: string, body: unknown) {
    if (!ID.test(id)) throw invalid('invalid_id', `Invalid ${kind} id.`, 'id');
    if (body === null || typeof body !== 'object' || Array.isArray(body))
      throw invalid('invalid_body', `The ${kind} must be a JSON object.`);
    const clean = { ...(body as Record<string, unknown>) };
    delete clean.id;
    delete clean.name;
    delete clean.source;
    if (kind === 'provider') await this.checkApiKey(id, clean);
    await this.checked(() => this.runtime.validate(kind, id, clean));
    try {
      // read before the transaction: the embedded store has one connection, which the transaction holds
      const before = await this.entryView(kind, id);
      await this.change(async ({ trx }) => {
        await this.store.put(kind, id, clean, trx);
        const after = { [kind === 'group' ? 'name' : 'id']: id, ...redact(kind, clean) };
        return {
          result: undefined,
          audit: { action: `${kind}.${before ? 'update' : 'create'}`, target: { type: kind, id }, accountId: null, before, after },
        };
      });
    } catch (e) {
      if (e instanceof SecretRequiredError)
        throw invalid(
          'secret_required',
          e.field === 'apiKey'
            ? 'A literal "apiKey" is stored encrypted, and this gateway has no GATEWAY_SECRET to encrypt it with: set GATEWAY_SECRET, or give "env:NAME".'
            : `"${e.field}" may hold a credential and is stored encrypted, and this gateway has no GATEWAY_SECRET to encrypt it with: set GATEWAY_SECRET.`,
          e.field,
        );
      throw e;
    }
    await this.runtime.reload();
    return { [kind === 'group' ? 'name' : 'id']: id, ...redact(kind, clean) };
  }

  async deleteEntry(kind: ConfigKind, id: string) {
    const exists = (await this.store.entries()).some((e) => e.kind === kind && e.id === id && e.body !== null);
    if (!exists) throw new GatewayError('not_found', `No ${kind} "${id.slice(0, 128)}".`, { code: `${kind}_not_found` });
    await this.checked(() => this.runtime.validate(kind, id, null));
    const before = await this.entryView(kind, id);
    await this.change(async ({ trx }) => {
      await this.store.put(kind, id, null, trx);
      return { result: undefined, audit: { action: `${kind}.delete`, target: { type: kind, id }, accountId: null, before, after: null } };
    });
    await this.runtime.reload();
  }

  /** An entry as the admin API shows it (secrets redacted), or null when there is none. */
  private async entryView(kind: ConfigKind, id: string) {
    const e = (await this.store.entries()).find((x) => x.kind === kind && x.id === id && x.body !== null);
    return e ? { [kind === 'group' ? 'name' : 'id']: id, ...redact(kind, e.body!) } : null;
  }

  /** `(set)` (a body read back and sent again) keeps the stored key; `env:NAME` must be a variable admins may name. */
  private async checkApiKey(id: string, body: Record<string, unknown>) {
    await this.keepStoredHeaders(id, body);
    if (body.apiKey === SET) {
      const current = (await this.store.entries()).find((e) => e.kind === 'provider' && e.id === id)?.body?.apiKey;
      if (current === undefined) throw invalid('invalid_api_key', `Provider "${id}" has no key to keep; give "apiKey".`, 'apiKey');
      body.apiKey = current;
      return;
    }
    if (body.apiKey !== undefined && typeof body.apiKey !== 'string')
      throw invalid('invalid_api_key', '"apiKey" must be a string.', 'apiKey');
    const ref = /^env:(.*)$/.exec((body.apiKey as string | undefined) ?? '');
    if (ref) this.envPolicy?.check(ref[1]!);
  }

  /** A header value `(set)` (read back and sent again) keeps the stored value, as the apiKey does. */
  private async keepStoredHeaders(id: string, body: Record<string, unknown>) {
    if (!Object.values(credentialHeaders(body)).includes(SET)) return;
    const stored = credentialHeaders((await this.store.entries()).find((e) => e.kind === 'provider' && e.id === id)?.body);
    const missing = Object.entries(credentialHeaders(body)).find(([name, v]) => v === SET && stored[name] === undefined);
    if (missing)
      throw invalid(
        'invalid_header',
        `Provider "${id}" has no header "${missing[0]}" to keep; give its value.`,
        `options.headers.${missing[0]}`,
      );
    Object.assign(
      body,
      mapCredentialHeaders(body, (v, name) => (v === SET ? stored[name] : v)),
    );
  }

  private async checked(fn: () => Promise<void>) {
    try {
      await fn();
    } catch (e) {
      if (e instanceof ConfigError) throw invalid('invalid_config_change', e.message.replace(/^Invalid gateway config admin change: /, ''));
      throw e;
    }
  }
}
