/** Accounts, keys, credit quotas and key budgets: the rules behind the admin API, self-service and the CLI alike. */
import { generateApiKey, hashApiKey } from '../auth';
import type { BudgetPeriod } from '../budget-period';
import type { ModelCatalogue } from '../catalogue';
import { GatewayError, invalid } from '../errors';
import type { AuditChange, AuditContext, AuditedChanges, AuditFilter, ChangeStores } from '../ports/audit-log.port';
import { NO_KEY_LIMITS, type ApiKeyRecord, type KeyRepository } from '../ports/key-repository.port';
import type { QuotaRepository } from '../ports/quota-repository.port';
import { boundedKey, type KeyBounds } from './account-bounds';
import type { Billing } from './billing';
import {
  budgetOf,
  keySettingsOf,
  keyView,
  type Budget,
  type KeyChangeFields,
  type KeyCreateFields,
  type KeyView,
  type McpKeyRule,
} from './key-settings';

/** MAX_KEYS_PER_ACCOUNT's default: live keys (neither revoked nor expired) of one account. */
export const DEFAULT_MAX_KEYS_PER_ACCOUNT = 500;

/** The CLI's own actor when it writes to the database itself (through a running gateway it is the local token's). */
export const CLI_AUDIT_CONTEXT: AuditContext = { actor: { type: 'cli', id: 'cli' }, requestId: null, address: null };

export interface KeyAdministrationDeps {
  /** reads; every write goes through `audit`, in the change's transaction */
  keys: KeyRepository;
  quotas: QuotaRepository;
  /** each change and its audit record in one transaction (docs/admin.md, "Audit") */
  audit: AuditedChanges;
  /** who the changes are recorded under until `as` says otherwise */
  author: AuditContext;
  /** a key's group and allowlist are checked against it */
  catalogue: ModelCatalogue;
  /** cached balances it forgets after a quota or budget change (absent in the CLI, which caches none) */
  billing?: Pick<Billing, 'forget'>;
  maxKeysPerAccount?: number;
  /** a key's MCP list is checked against it (absent: no MCP servers here) */
  mcp?: McpKeyRule;
  /** whether a guardrail id is configured: a key's own guardrails are checked against it (absent: none are) */
  guardrail?: (id: string) => boolean;
}

const NO_BUDGET: Budget = { limit: null, period: null };

const accountNotFound = (id: string) => new GatewayError('not_found', `No account "${id.slice(0, 64)}".`, { code: 'account_not_found' });
const noActiveKey = (id: string) => new GatewayError('not_found', `No active key "${id.slice(0, 64)}".`, { code: 'key_not_found' });
const keyTarget = (k: { id: string; accountId: string }) => ({ target: { type: 'key', id: k.id }, accountId: k.accountId });
const secretOf = (key: string) => ({ hash: hashApiKey(key), prefix: key.slice(0, 7) });

export class KeyAdministration {
  private readonly maxKeysPerAccount: number;

  constructor(private readonly deps: KeyAdministrationDeps) {
    this.maxKeysPerAccount = deps.maxKeysPerAccount ?? DEFAULT_MAX_KEYS_PER_ACCOUNT;
  }

  /** The same administration, recording `author` as the author of its changes. */
  as(author: AuditContext): KeyAdministration {
    return new KeyAdministration({ ...this.deps, author });
  }

  /** Runs a change and writes its audit record in the same transaction (none when `audit` is null). */
  private change<T>(fn: (stores: ChangeStores) => Promise<{ result: T; audit: AuditChange | null }>): Promise<T> {
    return this.deps.audit.run(this.deps.author, fn);
  }

  /** The audit log, newest first. */
  auditLog(filter: AuditFilter) {
    return this.deps.audit.list(filter);
  }

  async getQuota(accountId: string) {
    await this.getAccount(accountId);
    return this.deps.quotas.get(accountId);
  }

  /** limit: credits, or null for unlimited; period: daily, monthly, null (never resets), undefined (kept). */
  async setQuota(accountId: string, limit: number | null, period?: BudgetPeriod | null) {
    await this.getAccount(accountId);
    const q = await this.change(async ({ quotas }) => {
      const before = await quotas.get(accountId);
      const after = await quotas.setLimit(accountId, limit, period);
      return { result: after, audit: { action: 'quota.update', target: { type: 'quota', id: accountId }, accountId, before, after } };
    });
    this.deps.billing?.forget(accountId);
    return q;
  }

  listAccounts() {
    return this.deps.keys.listAccounts();
  }

  /** `id` and `name` as the route's schema checked them. */
  async createAccount(id: string, name?: string) {
    return this.change(async ({ keys }) => {
      const before = await keys.getAccount(id);
      const after = await keys.createAccount(id, name);
      // creating an account that exists changes nothing, so it writes no record
      const audit = before ? null : { action: 'account.create', target: { type: 'account', id }, accountId: id, before: null, after };
      return { result: after, audit };
    });
  }

  /** Renames an account (`name`: null gives it back its id as name); a change that changes nothing writes no record. */
  async updateAccount(id: string, { name }: { name?: string | null }) {
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
    const a = await this.deps.keys.getAccount(id);
    if (!a) throw accountNotFound(id);
    return a;
  }

  async listKeys(account?: string): Promise<KeyView[]> {
    return Promise.all((await this.deps.keys.listKeys(account)).map(async (k) => keyView(k, await this.deps.quotas.getKey(k.id))));
  }

  async getKey(id: string): Promise<KeyView> {
    return keyView(await this.keyRecord(id), await this.deps.quotas.getKey(id));
  }

  /** Creates a key; the clear key is in the answer once and never stored. */
  async createKey(fields: KeyCreateFields, bounds?: KeyBounds): Promise<KeyView & { key: string }> {
    const { account } = fields;
    const g = fields.group ?? 'default';
    await this.getAccount(account);
    if (!this.deps.catalogue.hasGroup(g)) throw invalid('unknown_group', `No group ${JSON.stringify(g)}.`, 'group');
    await bounds?.asked(g, fields);
    const role = fields.role ?? 'member';
    const settings = keySettingsOf(fields, {
      group: g,
      catalogue: this.deps.catalogue,
      mcp: this.deps.mcp,
      guardrail: this.deps.guardrail,
    });
    const budget = fields.budget === undefined ? undefined : budgetOf(fields.budget);
    const fresh = { models: null, limits: NO_KEY_LIMITS, expiresAt: null, tasks: 'account' as const };
    bounds?.key(boundedKey({ group: g, ...fresh, ...settings }, budget ?? NO_BUDGET));
    const key = generateApiKey();
    const view = await this.change(async (s) => {
      await this.checkKeyCount(s, account);
      const record = await s.keys.createKey({ accountId: account, group: g, role, ...secretOf(key), ...settings });
      const after = keyView(record, await setBudget(s, record, budget));
      return { result: after, audit: { action: 'key.create', ...keyTarget(record), before: null, after } };
    });
    return { ...view, key };
  }

  /** Changes a key's name, expiry, allowlist or limits; fields left out are kept. Within `bounds` before and after. */
  async updateKey(id: string, fields: KeyChangeFields, bounds?: KeyBounds): Promise<KeyView> {
    const current = await this.keyRecord(id);
    const currentBudget = await this.checkExisting(current, bounds);
    await bounds?.asked(current.group, fields);
    const settings = keySettingsOf(fields, {
      group: current.group,
      catalogue: this.deps.catalogue,
      current: current.limits,
      mcp: this.deps.mcp,
      guardrail: this.deps.guardrail,
    });
    // a role of null is a member's, as on creation
    const role = fields.role === undefined ? undefined : (fields.role ?? 'member');
    const budget = fields.budget === undefined ? undefined : budgetOf(fields.budget);
    bounds?.key(boundedKey({ ...current, ...settings }, budget ?? currentBudget));
    const view = await this.change(async (s) => {
      const before = keyView(current, await s.quotas.getKey(id));
      const updated = (await s.keys.updateKey(id, { ...settings, ...(role ? { role } : {}) })) ?? current;
      const after = keyView(updated, await setBudget(s, updated, budget));
      return { result: after, audit: { action: 'key.update', ...keyTarget(current), before, after } };
    });
    this.deps.billing?.forget(current.accountId, id);
    return view;
  }

  /** A new secret for the key, answered once; the old one keeps working until `graceUntil`. */
  async rotateKey(id: string, graceUntil: Date, bounds?: KeyBounds): Promise<KeyView & { key: string }> {
    const current = await this.keyRecord(id);
    await this.checkExisting(current, bounds);
    const key = generateApiKey();
    const view = await this.change(async (s) => {
      const before = keyView(current, await s.quotas.getKey(id));
      const rotated = await s.keys.rotateKey(id, secretOf(key), graceUntil);
      if (!rotated) throw noActiveKey(id);
      const after = { ...keyView(rotated, await s.quotas.getKey(id)), previous_secret_until: graceUntil.toISOString() };
      return { result: after, audit: { action: 'key.rotate', ...keyTarget(current), before, after } };
    });
    this.deps.billing?.forget(current.accountId, id);
    return { ...view, key };
  }

  async revokeKey(id: string, bounds?: KeyBounds) {
    const current = await this.deps.keys.getKey(id);
    if (current) await this.checkExisting(current, bounds);
    await this.change(async (s) => {
      if (!current || !(await s.keys.revokeKey(id))) throw noActiveKey(id);
      const before = keyView(current);
      const after = keyView((await s.keys.getKey(id))!);
      return { result: undefined, audit: { action: 'key.revoke', ...keyTarget(current), before, after } };
    });
    this.deps.billing?.forget(current!.accountId, id);
  }

  /** A key record (revoked ones too). */
  async keyRecord(id: string) {
    const k = await this.deps.keys.getKey(id);
    if (!k) throw new GatewayError('not_found', `No key "${id.slice(0, 64)}".`, { code: 'key_not_found' });
    return k;
  }

  /**
   * Whoever is bound may touch only a key it could have created: otherwise a narrowed key could rotate a wider one
   * and take its new secret. Answers the key's budget.
   */
  private async checkExisting(current: ApiKeyRecord, bounds: KeyBounds | undefined) {
    const budget = await this.deps.quotas.getKey(current.id);
    bounds?.key(boundedKey(current, budget));
    return budget;
  }

  /** Refuses a key beyond MAX_KEYS_PER_ACCOUNT, counted in the creating transaction (the account row is locked). */
  private async checkKeyCount(s: ChangeStores, accountId: string) {
    const live = await s.keys.countLiveKeys(accountId);
    if (live >= this.maxKeysPerAccount)
      throw new GatewayError(
        'invalid_request',
        `Account "${accountId}" has ${live} live keys, the most it may have (MAX_KEYS_PER_ACCOUNT=${this.maxKeysPerAccount}); revoke one first.`,
        { code: 'exceeds_key_count' },
      );
  }
}

/** The key's budget after the change: `budget` written when given, the stored one otherwise. */
function setBudget(s: ChangeStores, k: { id: string }, budget: Budget | undefined) {
  if (budget === undefined) return s.quotas.getKey(k.id);
  return s.quotas.setKeyLimit(k.id, budget.limit, budget.period);
}
