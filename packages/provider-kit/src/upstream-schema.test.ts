import { GatewayError } from '@gateway/core';
import { checkUpstream, s } from './upstream-schema';

const answer = s.object({
  id: s.string(),
  choices: s.array(s.object({ text: s.oneOf(s.string(), s.array(s.string())), n: s.number(), ok: s.boolean() })),
  extra: s.unknown(),
});

const fails = (value: unknown): GatewayError => {
  try {
    checkUpstream(answer, value, 'an answer');
  } catch (e) {
    if (e instanceof GatewayError) return e;
    throw e;
  }
  throw new Error('expected a failure');
};

describe('upstream minimal schemas', () => {
  it('accepts missing fields, drops nulls of declared fields and keeps fields it does not know', () => {
    expect(checkUpstream(answer, {}, 'x')).toEqual({});
    expect(checkUpstream(answer, { id: null, choices: [{ text: ['a'], n: null }], later: { x: 1 }, extra: 'anything' }, 'x')).toEqual({
      choices: [{ text: ['a'] }],
      later: { x: 1 },
      extra: 'anything',
    });
  });

  it('leaves the value it reads as it was (nulls are dropped from a copy)', () => {
    const value = { id: null, choices: [{ text: 'a', n: null }, { text: 'b' }] };
    const before = JSON.stringify(value);
    expect(checkUpstream(answer, value, 'x')).toEqual({ choices: [{ text: 'a' }, { text: 'b' }] });
    expect(JSON.stringify(value)).toBe(before);
  });

  it.each([
    [{ choices: 'x' }, '$.choices'],
    [{ choices: [{ text: 5 }] }, '$.choices[0].text'],
    [{ choices: [{}, { n: '1' }] }, '$.choices[1].n'],
    [{ choices: [{ n: Number.NaN }] }, '$.choices[0].n'],
    [{ choices: [{ ok: 'yes' }] }, '$.choices[0].ok'],
    ['not an object', '$'],
    [[], '$'],
  ])('a wrongly typed field %j is upstream_malformed_response naming %s', (value, path) => {
    const e = fails(value);
    expect(e).toMatchObject({ reason: 'upstream_malformed_response', code: 'upstream_malformed_response', status: 502, retryable: false });
    expect(e.message).toContain(path);
  });

  it("never quotes the upstream's value in the message", () => {
    expect(fails({ id: ['sk-secret-looking-value'] }).message).not.toContain('sk-secret');
  });
});
