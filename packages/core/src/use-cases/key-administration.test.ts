import { ModelCatalogue } from '../catalogue';
import { GatewayError } from '../errors';
import type { AuditChange, AuditedChanges, ChangeStores } from '../ports/audit-log.port';
import type { Account, ApiKeyRecord, KeyChangeRepository, NewKey } from '../ports/key-repository.port';
import type { KeyQuota, QuotaRepository } from '../ports/quota-repository.port';
import { accountBounds, withinCaller, boundedKey, type Caller } from './account-bounds';
import { CLI_AUDIT_CONTEXT, KeyAdministration } from './key-administration';

/** Accounts and keys in memory: only what key administration calls. */
function memoryKeys() {
  const accounts = new Map<string, Account>();
  const keys = new Map<string, ApiKeyRecord & { hash: string }>();
  const repo = {
    createAccount: async (id: string, name?: string) => {
      if (!accounts.has(id)) accounts.set(id, { id, name: name ?? id, createdAt: new Date(0) });
      return accounts.get(id)!;
    },
    getAccount: async (id: string) => accounts.get(id) ?? null,
    listAccounts: async () => [...accounts.values()],
    createKey: async (k: NewKey) => {
      const record = {
        id: `key_${keys.size + 1}`,
        role: k.role ?? 'admin',
        accountId: k.accountId,
        group: k.group,
        prefix: k.prefix,
        hash: k.hash,
        name: k.name ?? null,
        expiresAt: k.expiresAt ?? null,
        models: k.models ?? null,
        limits: k.limits ?? { requestsPerMinute: null, tokensPerMinute: null, concurrentStreams: null },
        tasks: k.tasks ?? 'account',
        createdAt: new Date(0),
        revokedAt: null,
      };
      keys.set(record.id, record);
      return record;
    },
    getKey: async (id: string) => keys.get(id) ?? null,
    updateKey: async (id: string, patch: Partial<ApiKeyRecord>) => {
      const k = keys.get(id);
      return k ? Object.assign(k, patch) : null;
    },
    listKeys: async (accountId?: string) => [...keys.values()].filter((k) => !accountId || k.accountId === accountId),
    countLiveKeys: async (accountId: string) => [...keys.values()].filter((k) => k.accountId === accountId && !k.revokedAt).length,
  } as unknown as KeyChangeRepository;
  return { repo, keys };
}

function memoryQuotas(): QuotaRepository {
  const budgets = new Map<string, KeyQuota>();
  return {
    getKey: async (keyId: string) => budgets.get(keyId) ?? { keyId, limit: null, used: 0, period: null },
    setKeyLimit: async (keyId: string, limit: number | null, period: KeyQuota['period']) => {
      budgets.set(keyId, { keyId, limit, used: 0, period });
      return budgets.get(keyId)!;
    },
  } as unknown as QuotaRepository;
}

function administration(maxKeysPerAccount = 2) {
  const { repo, keys } = memoryKeys();
  const quotas = memoryQuotas();
  const records: AuditChange[] = [];
  const audit: AuditedChanges = {
    async run(_ctx, change) {
      const { result, audit: record } = await change({ keys: repo, quotas } as ChangeStores);
      if (record) records.push(record);
      return result;
    },
    list: async () => [],
  };
  const catalogue = new ModelCatalogue([], [{ name: 'default', models: [] }]);
  const admin = new KeyAdministration({ keys: repo, quotas, audit, author: CLI_AUDIT_CONTEXT, catalogue, maxKeysPerAccount });
  return { admin, keys, records };
}

const refusal = async (p: Promise<unknown>) => {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(GatewayError);
  return e as GatewayError;
};

describe('KeyAdministration', () => {
  it('answers a new key once, stores its hash, and records the creation without the secret', async () => {
    const { admin, keys, records } = administration();
    await admin.createAccount('acme');
    const created = await admin.createKey({ account: 'acme', name: 'ci' });
    expect(created).toMatchObject({ object: 'api_key', account: 'acme', group: 'default', role: 'member', name: 'ci' });
    const stored = keys.get(created.id)!;
    expect(stored.hash).not.toBe(created.key);
    expect(stored.prefix).toBe(created.key.slice(0, 7));
    expect(records.map((r) => r.action)).toEqual(['account.create', 'key.create']);
    expect(JSON.stringify(records)).not.toContain(created.key);
  });

  it('creating an account that exists writes no record', async () => {
    const { admin, records } = administration();
    await admin.createAccount('acme', 'Acme');
    await admin.createAccount('acme', 'Acme');
    expect(records).toHaveLength(1);
  });

  it('refuses a key beyond the live-key cap with exceeds_key_count, and records nothing', async () => {
    const { admin, records } = administration(1);
    await admin.createAccount('acme');
    await admin.createKey({ account: 'acme' });
    const e = await refusal(admin.createKey({ account: 'acme' }));
    expect(e.code).toBe('exceeds_key_count');
    expect(e.message).toContain('MAX_KEYS_PER_ACCOUNT=1');
    expect(records.filter((r) => r.action === 'key.create')).toHaveLength(1);
  });

  it('refuses what the schema cannot say: an unknown group, a model outside the group, a date that names no instant', async () => {
    const { admin, records } = administration();
    await admin.createAccount('acme');
    expect((await refusal(admin.createKey({ account: 'acme', group: 'vip' }))).code).toBe('unknown_group');
    expect((await refusal(admin.createKey({ account: 'acme', models: ['sim-chat'] }))).code).toBe('invalid_models');
    const month13 = await refusal(admin.createKey({ account: 'acme', expires_at: '2030-13-01T00:00:00Z' }));
    expect([month13.code, month13.param]).toEqual(['invalid_expires_at', 'expires_at']);
    expect(records.map((r) => r.action)).toEqual(['account.create']);
  });

  it('a role of null is a member, and a change keeps what it leaves out', async () => {
    const { admin } = administration();
    await admin.createAccount('acme');
    const created = await admin.createKey({ account: 'acme', role: 'admin', name: 'ci', limits: { requests_per_minute: 5 } });
    const changed = await admin.updateKey(created.id, { role: null, limits: { tokens_per_minute: 9 } });
    expect(changed).toMatchObject({ role: 'member', name: 'ci', limits: { requests_per_minute: 5, tokens_per_minute: 9 } });
  });
});

describe('account bounds', () => {
  const caller: Caller = {
    key: {
      id: 'key_1',
      role: 'admin',
      accountId: 'acme',
      group: 'default',
      prefix: 'sk-',
      name: null,
      createdAt: new Date(0),
      revokedAt: null,
      expiresAt: null,
      models: null,
      limits: { requestsPerMinute: 60, tokensPerMinute: null, concurrentStreams: null },
      tasks: 'account',
    },
    budget: { keyId: 'key_1', limit: 50, used: 0, period: 'monthly' },
  };
  const limits = { requestsPerMinutePerKey: 0, concurrentStreamsPerKey: 0 };
  const key = (over: Partial<ApiKeyRecord>, budget = { limit: 50, period: 'monthly' as const }) =>
    boundedKey({ ...caller.key, ...over }, budget);

  it('lets a key no wider than the caller through', () => {
    expect(() => withinCaller({ gatewayLimits: limits }, caller, key({}))).not.toThrow();
  });

  it.each([
    [
      'a laxer rate limit',
      'exceeds_rate_limit',
      key({ limits: { requestsPerMinute: 61, tokensPerMinute: null, concurrentStreams: null } }),
    ],
    ['no budget', 'exceeds_budget', key({}, { limit: null, period: null } as never)],
    ['a budget that resets daily', 'exceeds_budget', key({}, { limit: 50, period: 'daily' } as never)],
    ['another group', 'exceeds_group', key({ group: 'vip' })],
  ])('refuses %s (%s)', (_name, code, wider) => {
    let thrown: unknown;
    try {
      withinCaller({ gatewayLimits: limits }, caller, wider);
    } catch (e) {
      thrown = e;
    }
    expect((thrown as GatewayError).code).toBe(code);
  });

  it("refuses a budget above the account's credit quota before the body is parsed", async () => {
    const quotas = { get: async () => ({ accountId: 'acme', limit: 10, used: 0, period: null }) } as unknown as QuotaRepository;
    const catalogue = new ModelCatalogue([], [{ name: 'default', models: [] }]);
    const bounds = accountBounds({ catalogue, quotas, gatewayLimits: limits }, caller);
    const e = await refusal(bounds.asked('default', { budget: { credit_limit: 20 } }));
    expect(e.code).toBe('exceeds_quota');
  });
});
