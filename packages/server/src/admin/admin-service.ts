import {
  GatewayError,
  generateApiKey,
  hashApiKey,
  invalid,
  type Billing,
  type BudgetPeriod,
  type KeyRepository,
  type ModelCatalogue,
  type QuotaRepository,
} from '@gateway/core';
import { SecretRequiredError, type ConfigKind, type KnexConfigStore } from '@gateway/store-postgres';
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

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

const ID = /^[A-Za-z0-9][A-Za-z0-9_.:@-]{0,127}$/;

/** What an admin reads back instead of a key: keys are write-only. */
const SET = '(set)';

/** Secrets never leave through the admin API: a provider's apiKey shows as set or not. */
function redact(kind: ConfigKind, body: Record<string, unknown>): Record<string, unknown> {
  if (kind !== 'provider' || body.apiKey === undefined) return body;
  const key = String(body.apiKey);
  return { ...body, apiKey: key.startsWith('env:') ? key : SET };
}

/** How catalogue changes are checked and applied; the CLI's account and key commands pass one that refuses. */
export type CatalogueChanges = Pick<ConfigRuntime, 'validate' | 'reload'>;

/** What the admin API and the CLI do, once. */
export class AdminService {
  constructor(
    private readonly keys: KeyRepository,
    private readonly store: KnexConfigStore,
    private readonly runtime: CatalogueChanges,
    private readonly catalogue: ModelCatalogue,
    private readonly quotas: QuotaRepository,
    private readonly billing?: Billing,
    private readonly envPolicy?: EnvReferencePolicy,
  ) {}

  async getQuota(accountId: string) {
    await this.getAccount(accountId);
    return this.quotas.get(accountId);
  }

  /** limit: credits, or null for unlimited; period: daily, monthly, null (never resets), undefined (kept). */
  async setQuota(accountId: string, limit: unknown, period?: unknown) {
    await this.getAccount(accountId);
    const credits = parseCreditLimit(limit, 'credit_limit');
    const q = await this.quotas.setLimit(accountId, credits, period === undefined ? undefined : parsePeriod(period, 'period'));
    this.billing?.forget(accountId);
    return q;
  }

  listAccounts() {
    return this.keys.listAccounts();
  }

  async createAccount(id: unknown, name: unknown) {
    if (typeof id !== 'string' || !/^[A-Za-z0-9_.-]{1,64}$/.test(id))
      throw invalid('invalid_account_id', '"id" must be 1-64 letters, digits, _ . -', 'id');
    if (name !== undefined && (typeof name !== 'string' || name.length > 200))
      throw invalid('invalid_name', '"name" must be a string of at most 200 characters.', 'name');
    return this.keys.createAccount(id, name as string | undefined);
  }

  async getAccount(id: string) {
    const a = await this.keys.getAccount(id);
    if (!a) throw new GatewayError('not_found', `No account "${id.slice(0, 64)}".`, { code: 'account_not_found' });
    return a;
  }

  async listKeys(account?: string): Promise<KeyView[]> {
    return Promise.all((await this.keys.listKeys(account)).map(async (k) => keyView(k, await this.quotas.getKey(k.id))));
  }

  async getKey(id: string): Promise<KeyView> {
    return keyView(await this.keyRecord(id), await this.quotas.getKey(id));
  }

  /** Creates a key; the clear key is in the answer once and never stored. */
  async createKey(body: unknown): Promise<KeyView & { key: string }> {
    if (!isObject(body)) throw invalid('invalid_body', 'The key must be a JSON object.');
    refuseUnknownFields(body, ['account', 'group', ...KEY_SETTING_FIELDS]);
    const { account, group } = body;
    if (typeof account !== 'string') throw invalid('missing_account', '"account" is required.', 'account');
    await this.getAccount(account);
    const g = group ?? 'default';
    if (typeof g !== 'string' || !this.catalogue.hasGroup(g)) throw invalid('unknown_group', `No group ${JSON.stringify(g)}.`, 'group');
    const settings = parseKeySettings(body, { group: g, catalogue: this.catalogue });
    const budget = body.budget === undefined ? undefined : parseBudget(body.budget);
    const key = generateApiKey();
    const record = await this.keys.createKey({ accountId: account, group: g, hash: hashApiKey(key), prefix: key.slice(0, 7), ...settings });
    return { ...keyView(record, await this.setBudget(record, budget)), key };
  }

  /** Changes a key's name, expiry, allowlist or limits; fields left out are kept. */
  async updateKey(id: string, body: unknown): Promise<KeyView> {
    if (!isObject(body)) throw invalid('invalid_body', 'The change must be a JSON object.');
    refuseUnknownFields(body, KEY_SETTING_FIELDS);
    const current = await this.keyRecord(id);
    const settings = parseKeySettings(body, { group: current.group, catalogue: this.catalogue, current: current.limits });
    const budget = body.budget === undefined ? undefined : parseBudget(body.budget);
    const updated = (await this.keys.updateKey(id, settings)) ?? current;
    return keyView(updated, await this.setBudget(updated, budget));
  }

  private async setBudget(k: { id: string; accountId: string }, budget: { limit: number | null; period: BudgetPeriod | null } | undefined) {
    if (budget === undefined) return this.quotas.getKey(k.id);
    const q = await this.quotas.setKeyLimit(k.id, budget.limit, budget.period);
    this.billing?.forget(k.accountId, k.id);
    return q;
  }

  private async keyRecord(id: string) {
    const k = await this.keys.getKey(id);
    if (!k) throw new GatewayError('not_found', `No key "${id.slice(0, 64)}".`, { code: 'key_not_found' });
    return k;
  }

  async revokeKey(id: string) {
    if (!(await this.keys.revokeKey(id)))
      throw new GatewayError('not_found', `No active key "${id.slice(0, 64)}".`, { code: 'key_not_found' });
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
      await this.store.put(kind, id, clean);
    } catch (e) {
      if (e instanceof SecretRequiredError)
        throw invalid(
          'secret_required',
          'A literal "apiKey" is stored encrypted, and this gateway has no GATEWAY_SECRET to encrypt it with: set GATEWAY_SECRET, or give "env:NAME".',
          'apiKey',
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
    await this.store.put(kind, id, null);
    await this.runtime.reload();
  }

  /** `(set)` (a body read back and sent again) keeps the stored key; `env:NAME` must be a variable admins may name. */
  private async checkApiKey(id: string, body: Record<string, unknown>) {
    if (body.apiKey === SET) {
      const current = (await this.store.entries()).find((e) => e.kind === 'provider' && e.id === id)?.body?.apiKey;
      if (current === undefined) throw invalid('invalid_api_key', `Provider "${id}" has no key to keep; give "apiKey".`, 'apiKey');
      body.apiKey = current;
      return;
    }
    if (body.apiKey !== undefined && typeof body.apiKey !== 'string')
      throw invalid('invalid_api_key', '"apiKey" must be a string.', 'apiKey');
    const ref = /^env:(.*)$/.exec((body.apiKey as string | undefined) ?? '');
    if (ref) this.envPolicy?.check(ref[1]);
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
