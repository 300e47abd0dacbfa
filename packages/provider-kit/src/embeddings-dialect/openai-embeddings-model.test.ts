import { decodeBase64Vector } from './openai-embeddings-model';

/** What the wire says: little-endian float32 values, read one by one. */
function readOneByOne(b64: string): number[] {
  const bytes = Buffer.from(b64, 'base64');
  return Array.from({ length: bytes.length / 4 }, (_, i) => bytes.readFloatLE(i * 4));
}

describe('decodeBase64Vector', () => {
  it('reads every value as the wire writes it', () => {
    const specials = [0, -0, 1, -1, 3.4e38, -3.4e38, 1.4e-45, Infinity, -Infinity, 0.1, -0.123456789];
    for (let n = 0; n < 40; n++) {
      const values = Array.from({ length: n }, (_, i) => specials[i % specials.length]! * (i + 1));
      const bytes = Buffer.alloc(n * 4);
      values.forEach((v, i) => bytes.writeFloatLE(v, i * 4));
      const b64 = bytes.toString('base64');
      expect(decodeBase64Vector(b64)).toEqual(readOneByOne(b64));
    }
    const nan = Buffer.alloc(4);
    nan.writeFloatLE(NaN, 0);
    expect(decodeBase64Vector(nan.toString('base64'))).toEqual([NaN]);
  });

  it('refuses a length that is not a whole number of float32 values', () => {
    expect(() => decodeBase64Vector(Buffer.alloc(6).toString('base64'))).toThrow(
      expect.objectContaining({ reason: 'upstream_malformed_response' }),
    );
  });
});
