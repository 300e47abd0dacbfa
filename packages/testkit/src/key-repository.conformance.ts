import { digestsEqual, hashApiKey, type KeyRepository } from '@gateway/core';

/** Every KeyRepository adapter runs this suite. */
export function describeKeyRepositoryConformance(name: string, make: () => Promise<{ repo: KeyRepository; done(): Promise<void> }>): void {
  describe(`KeyRepository conformance: ${name}`, () => {
    let repo: KeyRepository;
    let done: () => Promise<void>;
    beforeAll(async () => {
      ({ repo, done } = await make());
    });
    afterAll(async () => done());

    it('creates accounts idempotently', async () => {
      const a = await repo.createAccount('acme', 'Acme');
      const again = await repo.createAccount('acme', 'Other');
      expect(a).toMatchObject({ id: 'acme', name: 'Acme' });
      expect(again.name).toBe('Acme');
      expect((await repo.listAccounts()).map((x) => x.id)).toContain('acme');
    });

    it('renames an account; null gives it back its id as name; an unknown one is null', async () => {
      await repo.createAccount('renamed', 'Before');
      expect(await repo.renameAccount('renamed', 'After')).toMatchObject({ id: 'renamed', name: 'After' });
      expect((await repo.getAccount('renamed'))!.name).toBe('After');
      expect((await repo.renameAccount('renamed', null))!.name).toBe('renamed');
      expect(await repo.renameAccount('no-such-account', 'x')).toBeNull();
    });

    it('stores only the hash and finds a key by it', async () => {
      const key = 'sk-conformance-0001';
      const rec = await repo.createKey({ accountId: 'acme', group: 'default', hash: hashApiKey(key), prefix: key.slice(0, 7) });
      const found = await repo.findKeyByHash(hashApiKey(key));
      expect(found).toMatchObject({ id: rec.id, accountId: 'acme', group: 'default', revokedAt: null });
      expect(digestsEqual(found!.hash, hashApiKey(key))).toBe(true);
      expect(JSON.stringify(found)).not.toContain(key);
      expect(await repo.findKeyByHash(hashApiKey('sk-conformance-0002'))).toBeNull();
    });

    it('gives a key a random id that reveals nothing about the key or its hash', async () => {
      const key = 'sk-conformance-id-0001';
      const rec = await repo.createKey({ accountId: 'acme', group: 'default', hash: hashApiKey(key), prefix: key.slice(0, 7) });
      expect(rec.id).toMatch(/^key_[a-z0-9]{24}$/);
      expect(hashApiKey(key)).not.toContain(rec.id.slice(4, 12));
    });

    it('creating the same key twice keeps one record', async () => {
      const h = hashApiKey('sk-conformance-dup');
      const a = await repo.createKey({ accountId: 'acme', group: 'default', hash: h, prefix: 'sk-conf' });
      const b = await repo.createKey({ accountId: 'acme', group: 'vip', hash: h, prefix: 'sk-conf' });
      expect(b.id).toBe(a.id);
      expect(b.group).toBe('default');
    });

    it('revokes once', async () => {
      const rec = await repo.createKey({ accountId: 'acme', group: 'default', hash: hashApiKey('sk-conformance-rev'), prefix: 'sk-conf' });
      expect(await repo.revokeKey(rec.id)).toBe(true);
      expect(await repo.revokeKey(rec.id)).toBe(false);
      expect((await repo.findKeyByHash(hashApiKey('sk-conformance-rev')))!.revokedAt).toBeInstanceOf(Date);
      expect(await repo.revokeKey('no-such-key')).toBe(false);
    });

    it("keeps a key's settings and changes only those given", async () => {
      const hash = hashApiKey('sk-conformance-settings');
      const rec = await repo.createKey({
        accountId: 'acme',
        group: 'default',
        hash,
        prefix: 'sk-conf',
        name: 'ci',
        expiresAt: new Date('2031-02-03T04:05:06Z'),
        models: ['m1', 'm2'],
        limits: { requestsPerMinute: 10, tokensPerMinute: null, concurrentStreams: 3 },
      });
      const settings = {
        name: 'ci',
        expiresAt: new Date('2031-02-03T04:05:06Z'),
        models: ['m1', 'm2'],
        limits: { requestsPerMinute: 10, tokensPerMinute: null, concurrentStreams: 3 },
      };
      expect(rec).toMatchObject(settings);
      expect(await repo.findKeyByHash(hash)).toMatchObject(settings);
      const changed = await repo.updateKey(rec.id, { models: null, name: 'renamed' });
      expect(changed).toMatchObject({ ...settings, models: null, name: 'renamed' });
      expect(await repo.getKey(rec.id)).toMatchObject({ ...settings, models: null, name: 'renamed' });
      expect(await repo.updateKey('key_missing', { name: 'x' })).toBeNull();
      const plain = await repo.createKey({
        accountId: 'acme',
        group: 'default',
        hash: hashApiKey('sk-conformance-plain'),
        prefix: 'sk-conf',
      });
      expect(plain).toMatchObject({
        name: null,
        expiresAt: null,
        models: null,
        limits: { requestsPerMinute: null, tokensPerMinute: null, concurrentStreams: null },
      });
    });

    it('lists keys per account', async () => {
      await repo.createAccount('other');
      await repo.createKey({ accountId: 'other', group: 'default', hash: hashApiKey('sk-conformance-oth'), prefix: 'sk-conf' });
      const mine = await repo.listKeys('acme');
      expect(mine.length).toBeGreaterThanOrEqual(3);
      expect(mine.every((k) => k.accountId === 'acme')).toBe(true);
      expect((await repo.listKeys()).some((k) => k.accountId === 'other')).toBe(true);
    });
  });
}
