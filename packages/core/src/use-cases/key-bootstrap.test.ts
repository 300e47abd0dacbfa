import type { AuditChange, AuditedChanges, ChangeStores } from '../ports/audit-log.port';
import type { Account, ApiKeyRecord, NewKey } from '../ports/key-repository.port';
import { bootstrapDemoKey, bootstrapFileKeys } from './key-bootstrap';

/** Accounts and keys by hash in memory, with the audit records their creations wrote. */
function memory() {
  const accounts = new Map<string, Account>();
  const keys = new Map<string, ApiKeyRecord>();
  const records: AuditChange[] = [];
  const repo = {
    createAccountIfMissing: async (id: string, name?: string) => {
      if (accounts.has(id)) return null;
      accounts.set(id, { id, name: name ?? id, createdAt: new Date(0) });
      return accounts.get(id)!;
    },
    createKeyIfUnknown: async (k: NewKey) => {
      if (keys.has(k.hash)) return null;
      const made = {
        id: `key_${keys.size + 1}`,
        accountId: k.accountId,
        group: k.group,
        role: k.role,
        prefix: k.prefix,
        createdAt: new Date(0),
        limits: {},
      } as ApiKeyRecord;
      keys.set(k.hash, made);
      return made;
    },
    listKeys: async (account: string) => [...keys.values()].filter((k) => k.accountId === account),
  };
  const audit = {
    run: async (_ctx, change) => {
      const { result, audit: record } = await change({ keys: repo } as unknown as ChangeStores);
      if (record) records.push(record);
      return result;
    },
  } as AuditedChanges;
  return { audit, keys: repo, records, stored: keys };
}

describe('key bootstrap', () => {
  it("creates the file's accounts and keys once, each with its record; a second start writes nothing", async () => {
    const m = memory();
    const file = [
      { account: 'acme', group: 'default', key: 'sk-one' },
      { account: 'acme', group: 'default', role: 'member' as const, key: 'sk-two' },
    ];
    await bootstrapFileKeys(m.audit, 'gateway.yaml', file);
    await bootstrapFileKeys(m.audit, 'gateway.yaml', file);
    expect(m.records.map((r) => r.action)).toEqual(['account.create', 'key.create', 'key.create']);
    expect([...m.stored.values()].map((k) => [k.role, k.prefix])).toEqual([
      ['admin', 'sk-one'],
      ['member', 'sk-two'],
    ]);
  });

  it('the demo key is returned when first made, then null; a fixed one every time', async () => {
    const m = memory();
    const demo = { account: 'demo', group: 'default' };
    expect(await bootstrapDemoKey(m, 'built-in', demo)).toMatch(/^sk-/);
    expect(await bootstrapDemoKey(m, 'built-in', demo)).toBeNull();
    expect(await bootstrapDemoKey(m, 'built-in', demo, 'sk-fixed')).toBe('sk-fixed');
    expect(await bootstrapDemoKey(m, 'built-in', demo, 'sk-fixed')).toBe('sk-fixed');
    expect(m.stored.size).toBe(2);
  });
});
