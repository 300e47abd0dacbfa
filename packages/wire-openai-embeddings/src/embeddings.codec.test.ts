import { base64Vector, encodeEmbeddings, inputsOf } from './embeddings.codec';

describe('the OpenAI embeddings codec', () => {
  it('writes base64 as little-endian float32 that reads back to the vector', () => {
    const v = [0.1, -0.25, 1, 0, -1e-8];
    const bytes = Buffer.from(base64Vector(v), 'base64');
    expect(bytes).toHaveLength(20);
    expect(bytes.readFloatLE(4)).toBe(-0.25);
    const back = Array.from({ length: 5 }, (_, i) => bytes.readFloatLE(i * 4));
    back.forEach((x, i) => expect(x).toBeCloseTo(v[i]!, 7));
    // little-endian whatever the machine: 1.0f is 00 00 80 3f
    expect([...bytes.subarray(8, 12)]).toEqual([0x00, 0x00, 0x80, 0x3f]);
  });

  it('answers exactly the encoding asked', () => {
    const answer = { embeddings: [[0.5, 0.5]], usage: { inputTokens: 3, estimated: false }, warnings: [] };
    expect(encodeEmbeddings(answer, 'm', 'float').data[0]!.embedding).toEqual([0.5, 0.5]);
    expect(typeof encodeEmbeddings(answer, 'm', 'base64').data[0]!.embedding).toBe('string');
    expect(encodeEmbeddings(answer, 'm', 'float').usage).toEqual({ prompt_tokens: 3, total_tokens: 3 });
  });

  it('reads a string, strings, one token array and token arrays as inputs', () => {
    expect(inputsOf('a')).toEqual(['a']);
    expect(inputsOf(['a', 'b'])).toEqual(['a', 'b']);
    expect(inputsOf([1, 2])).toEqual([[1, 2]]);
    expect(inputsOf([[1], [2]])).toEqual([[1], [2]]);
    expect(inputsOf([])).toEqual([]);
  });
});
