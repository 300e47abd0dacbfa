import { CompactionSealer } from './compaction.seal';

const sealer = new CompactionSealer('a-test-secret-of-enough-length');
const payload = { v: 1, digest: ['- user: hi'], kept: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }] };

describe('CompactionSealer', () => {
  it('opens what it sealed for the same account', () => {
    const token = sealer.seal(payload, 'alpha');
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(sealer.open(token, 'alpha')).toEqual(payload);
  });

  it('is opaque: the plain text does not appear in the token', () => {
    const token = sealer.seal({ secret: 'the-launch-code' }, 'alpha');
    expect(Buffer.from(token, 'base64url').toString('latin1')).not.toContain('launch');
  });

  it('refuses a token with any byte changed', () => {
    const raw = Buffer.from(sealer.seal(payload, 'alpha'), 'base64url');
    for (const at of [0, 5, 20, raw.length - 1]) {
      const bad = Buffer.from(raw);
      bad[at]! ^= 0x01;
      expect(sealer.open(bad.toString('base64url'), 'alpha')).toBeUndefined();
    }
  });

  it('refuses another account, another secret and garbage', () => {
    const token = sealer.seal(payload, 'alpha');
    expect(sealer.open(token, 'beta')).toBeUndefined();
    expect(new CompactionSealer('another-secret-of-enough-length').open(token, 'alpha')).toBeUndefined();
    expect(sealer.open('not a token', 'alpha')).toBeUndefined();
    expect(sealer.open('', 'alpha')).toBeUndefined();
  });

  it('refuses a short secret', () => {
    expect(() => new CompactionSealer('short')).toThrow(/16/);
  });

  it('during a GATEWAY_SECRET rotation opens tokens sealed under the previous secret, and seals under the new one', () => {
    const old = sealer.seal(payload, 'alpha');
    const rotated = new CompactionSealer('the-new-secret-of-enough-length', 'a-test-secret-of-enough-length');
    expect(rotated.open(old, 'alpha')).toEqual(payload);
    expect(rotated.open(old, 'beta')).toBeUndefined();
    const fresh = rotated.seal(payload, 'alpha');
    expect(sealer.open(fresh, 'alpha')).toBeUndefined();
    expect(new CompactionSealer('the-new-secret-of-enough-length').open(fresh, 'alpha')).toEqual(payload);
  });
});
