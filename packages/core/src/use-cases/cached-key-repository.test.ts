import { hashApiKey } from '../auth';
import type { KeyRepository } from '../ports/key-repository.port';
import { CachedKeyRepository } from './cached-key-repository';

describe('CachedKeyRepository', () => {
  it('serves lookups from cache within the TTL and asks the store again after it', async () => {
    let calls = 0;
    let revoked: Date | null = null;
    const inner = {
      findKeyByHash: async (hash: string) => {
        calls++;
        return { id: 'k1', accountId: 'a', group: 'g', prefix: 'sk-', createdAt: new Date(0), revokedAt: revoked, hash };
      },
      revokeKey: async () => true,
    } as unknown as KeyRepository;
    let now = 0;
    const repo = new CachedKeyRepository(inner, 2000, () => now);
    const h = hashApiKey('sk-x');
    await repo.findKeyByHash(h);
    await repo.findKeyByHash(h);
    expect(calls).toBe(1);
    revoked = new Date();
    now = 1999;
    expect((await repo.findKeyByHash(h))!.revokedAt).toBeNull();
    now = 2000;
    expect((await repo.findKeyByHash(h))!.revokedAt).toBeInstanceOf(Date);
    expect(calls).toBe(2);
    await repo.revokeKey('k1');
    await repo.findKeyByHash(h);
    expect(calls).toBe(3);
  });

  it('lookups that miss together (an entry expired under load) share one store read', async () => {
    const answers: Array<() => void> = [];
    const inner = {
      findKeyByHash: (hash: string) =>
        new Promise((resolve) =>
          answers.push(() =>
            resolve({ id: 'k1', accountId: 'a', group: 'g', prefix: 'sk-', createdAt: new Date(0), revokedAt: null, hash }),
          ),
        ),
    } as unknown as KeyRepository;
    const repo = new CachedKeyRepository(inner, 2000, () => 0);
    const lookups = Promise.all(Array.from({ length: 8 }, () => repo.findKeyByHash(hashApiKey('sk-x'))));
    answers.forEach((answer) => answer());
    expect((await lookups).map((k) => k!.id)).toEqual(Array(8).fill('k1'));
    expect(answers).toHaveLength(1);
  });

  it('carries every setting of a key, and a settings change through it applies at once', async () => {
    let expiresAt: Date | null = null;
    const record = () => ({
      id: 'k1',
      accountId: 'a',
      group: 'g',
      prefix: 'sk-',
      createdAt: new Date(0),
      revokedAt: null,
      name: 'n',
      expiresAt,
      models: ['m'],
      limits: { requestsPerMinute: 5, tokensPerMinute: null, concurrentStreams: 1 },
    });
    const inner = {
      findKeyByHash: async (hash: string) => ({ ...record(), hash }),
      updateKey: async () => record(),
    } as unknown as KeyRepository;
    const repo = new CachedKeyRepository(inner, 60_000, () => 0);
    const h = hashApiKey('sk-y');
    expect(await repo.findKeyByHash(h)).toMatchObject({ models: ['m'], limits: { requestsPerMinute: 5 }, expiresAt: null });
    expiresAt = new Date(1000);
    expect((await repo.findKeyByHash(h))!.expiresAt).toBeNull(); // cached
    await repo.updateKey('k1', { expiresAt });
    expect((await repo.findKeyByHash(h))!.expiresAt).toEqual(new Date(1000));
  });
});
