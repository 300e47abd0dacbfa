import { queryParams } from './request-query';

describe('queryParams', () => {
  const q = queryParams<{ account?: string; limit?: string }>([
    { name: 'account', in: 'query', description: 'An account.', schema: { type: 'string' } },
    { name: 'limit', in: 'query', description: 'A limit.', required: true, schema: { type: 'string', pattern: '^\\d+$' } },
  ]);

  it('answers the query as declared, parameters it does not declare passed through', () => {
    expect(q.check({ account: 'acme', limit: '5', other: 'x' })).toEqual({ account: 'acme', limit: '5', other: 'x' });
  });

  it('refuses a repeated parameter, a wrong form and a missing one, naming it', () => {
    expect(() => q.check({ account: ['a', 'b'], limit: '5' })).toThrow(
      expect.objectContaining({ code: 'invalid_parameter', param: 'account' }),
    );
    expect(() => q.check({ limit: 'five' })).toThrow(expect.objectContaining({ code: 'invalid_parameter', param: 'limit' }));
    expect(() => q.check({})).toThrow(expect.objectContaining({ code: 'missing_field', param: 'limit' }));
  });
});
