import { digestsEqual, generateApiKey, hashApiKey, newId } from './auth';
import { probeImage, decodeBase64Strict } from './image-probe';

describe('keys', () => {
  it('hashes deterministically and never returns the key', () => {
    const h = hashApiKey('sk-alpha-0001');
    expect(h).toMatch(/^[0-9a-f]{64}$/);
    expect(h).toBe(hashApiKey('sk-alpha-0001'));
    expect(h).not.toBe(hashApiKey('sk-alpha-0002'));
    expect(h).not.toContain('alpha');
  });

  it('compares digests in constant time and only equal ones match', () => {
    expect(digestsEqual(hashApiKey('a'), hashApiKey('a'))).toBe(true);
    expect(digestsEqual(hashApiKey('a'), hashApiKey('b'))).toBe(false);
    expect(digestsEqual(hashApiKey('a'), 'abcd')).toBe(false);
  });

  it('generates sk- keys and lowercase-alphanumeric ids', () => {
    const k = generateApiKey();
    expect(k).toMatch(/^sk-[A-Za-z0-9]{32}$/);
    expect(generateApiKey()).not.toBe(k);
    expect(newId('task', 10)).toMatch(/^task[a-z0-9]{20}$/);
  });

  it('ids drawn across many refills of the random pool never repeat', () => {
    const ids = Array.from({ length: 2000 }, () => newId('', 12)); // 48,000 random bytes: a dozen refills
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((id) => /^[a-z0-9]{24}$/.test(id))).toBe(true);
  });
});

describe('image probing', () => {
  it('reads PNG size from the header and refuses non-images', () => {
    const png = Buffer.alloc(33);
    png.writeUInt32BE(0x89504e47, 0);
    png.writeUInt32BE(0x0d0a1a0a, 4);
    png.write('IHDR', 12, 'ascii');
    png.writeUInt32BE(640, 16);
    png.writeUInt32BE(480, 20);
    expect(probeImage(png)).toEqual({ mediaType: 'image/png', width: 640, height: 480 });
    expect(probeImage(Buffer.from('not an image at all, just text'))).toBeNull();
  });

  it('decodes only strict base64', () => {
    expect(Buffer.from(decodeBase64Strict('aGVsbG8=')!).toString()).toBe('hello');
    expect(decodeBase64Strict('data:image/png;base64,aGVsbG8=')).toBeNull();
    expect(decodeBase64Strict('a')).toBeNull();
    expect(decodeBase64Strict('')).toBeNull();
  });
});
