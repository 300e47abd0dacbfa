import { checkExpirySeconds, checkUploadPurpose, expiryOf, FILE_LIMITS, isExpired, newFileId } from './files';

const at = new Date('2026-03-01T00:00:00Z');

describe('file rules', () => {
  it('uploads are limited to 200 MiB, the contract default', () => {
    expect(FILE_LIMITS.uploadBytes).toBe(209_715_200);
  });

  it('batch files expire after 30 days, user_data files never, unless expires_after says otherwise', () => {
    expect(expiryOf('batch', at)).toEqual(new Date('2026-03-31T00:00:00Z'));
    expect(expiryOf('batch_output', at)).toEqual(new Date('2026-03-31T00:00:00Z'));
    expect(expiryOf('user_data', at)).toBeNull();
    expect(expiryOf('user_data', at, 3600)).toEqual(new Date('2026-03-01T01:00:00Z'));
    expect(expiryOf('batch', at, 7200)).toEqual(new Date('2026-03-01T02:00:00Z'));
  });

  it('expires_after[seconds] is 3600 to 2592000', () => {
    expect(checkExpirySeconds(undefined)).toBeUndefined();
    expect(checkExpirySeconds(3600)).toBe(3600);
    expect(checkExpirySeconds(2_592_000)).toBe(2_592_000);
    for (const bad of [3599, 2_592_001, 3600.5, NaN]) expect(() => checkExpirySeconds(bad)).toThrow(/3600 to 2592000/);
  });

  it('only batch and user_data may be uploaded', () => {
    expect(checkUploadPurpose('batch')).toBe('batch');
    expect(checkUploadPurpose('user_data')).toBe('user_data');
    for (const bad of ['fine-tune', 'batch_output', 'assistants', undefined, 3])
      expect(() => checkUploadPurpose(bad)).toThrow(expect.objectContaining({ status: 400, code: 'invalid_purpose', param: 'purpose' }));
  });

  it('an expiry is reached at its instant; no expiry never is', () => {
    expect(isExpired({ expiresAt: at }, at)).toBe(true);
    expect(isExpired({ expiresAt: at }, new Date(at.getTime() - 1))).toBe(false);
    expect(isExpired({ expiresAt: null }, new Date(8.64e15))).toBe(false);
  });

  it('ids start with file- and sort by creation time', () => {
    const ids = [0, 1, 1000, 86_400_000 * 400].map((ms) => newFileId(new Date(at.getTime() + ms)));
    expect(ids.every((id) => /^file-[a-z0-9]{33}$/.test(id))).toBe(true);
    expect([...ids].reverse().sort()).toEqual(ids);
  });
});
