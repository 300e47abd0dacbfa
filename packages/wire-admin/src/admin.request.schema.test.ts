import { GatewayError } from '@gateway/core';
import { checkBody, type RequestBody } from '@gateway/http-kit';
import {
  createAccountBody as createAccount,
  createKeyBody as createKey,
  rotateBody,
  selfServiceCreateBody,
  selfServiceUpdateBody,
  setQuotaBody as setQuota,
  updateAccountBody as updateAccount,
  updateKeyBody as updateKey,
} from './admin.request.schema';
import { auditFilter, auditQuery } from './audit-view';

async function refusal(body: RequestBody<unknown>, raw: unknown) {
  const e = await checkBody(body, raw).then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(GatewayError);
  const { code, param, message } = e as GatewayError;
  return { code, param, message };
}

describe('admin bodies: declared, enforced, each field refused with its own code', () => {
  it.each<[string, RequestBody<unknown>, unknown, string, string | undefined]>([
    ['a missing account', createKey, {}, 'missing_account', 'account'],
    ['a group that is no string', createKey, { account: 'a', group: 5 }, 'unknown_group', 'group'],
    ['an unknown role', createKey, { account: 'a', role: 'owner' }, 'invalid_role', 'role'],
    ['a name too long', updateKey, { name: 'x'.repeat(201) }, 'invalid_name', 'name'],
    ['a number for a name', updateKey, { name: 42 }, 'invalid_name', 'name'],
    ['an expiry in words', updateKey, { expires_at: 'next tuesday' }, 'invalid_expires_at', 'expires_at'],
    ['an expiry in seconds', updateKey, { expires_at: 1893456000 }, 'invalid_expires_at', 'expires_at'],
    ['an empty allowlist', updateKey, { models: [] }, 'invalid_models', 'models'],
    ['an allowlist of numbers', updateKey, { models: ['a', 5] }, 'invalid_models', 'models'],
    ['an unknown task scope', updateKey, { tasks: 'mine' }, 'invalid_tasks', 'tasks'],
    ['limits that are no object', updateKey, { limits: 'fast' }, 'invalid_limits', 'limits'],
    ['a limit of zero', updateKey, { limits: { requests_per_minute: 0 } }, 'invalid_limits', 'limits.requests_per_minute'],
    ['a fractional limit', updateKey, { limits: { concurrent_streams: 1.5 } }, 'invalid_limits', 'limits.concurrent_streams'],
    ['a budget that is no object', updateKey, { budget: 5 }, 'invalid_budget', 'budget'],
    ['a budget without its limit', updateKey, { budget: { period: 'daily' } }, 'invalid_credit_limit', 'budget.credit_limit'],
    ['a negative budget', updateKey, { budget: { credit_limit: -1 } }, 'invalid_credit_limit', 'budget.credit_limit'],
    ['a budget past the column', updateKey, { budget: { credit_limit: 1e14 } }, 'invalid_credit_limit', 'budget.credit_limit'],
    ['an hourly budget', updateKey, { budget: { credit_limit: 1, period: 'hourly' } }, 'invalid_period', 'budget.period'],
    ['a bad account id', createAccount, { id: 'a b' }, 'invalid_account_id', 'id'],
    ['no account id', createAccount, { name: 'A' }, 'invalid_account_id', 'id'],
    ['a null account name on creation', createAccount, { id: 'a', name: null }, 'invalid_name', 'name'],
    ['an account name too long', updateAccount, { name: 'x'.repeat(201) }, 'invalid_name', 'name'],
    ['a quota in words', setQuota, { credit_limit: 'NaN' }, 'invalid_credit_limit', 'credit_limit'],
    ['no quota', setQuota, {}, 'invalid_credit_limit', 'credit_limit'],
    ['an hourly quota', setQuota, { credit_limit: 10, period: 'hourly' }, 'invalid_period', 'period'],
    ['a fractional grace', rotateBody, { grace_seconds: 1.5 }, 'invalid_grace_seconds', 'grace_seconds'],
    ['a grace in text', rotateBody, { grace_seconds: '60' }, 'invalid_grace_seconds', 'grace_seconds'],
    ['no grace', rotateBody, {}, 'invalid_grace_seconds', 'grace_seconds'],
  ])('%s: 400 %s', async (_name, body, raw, code, param) => {
    expect(await refusal(body, raw)).toMatchObject({ code, param });
  });

  it('names an unknown field with the fields its object knows, at any depth', async () => {
    expect(await refusal(createKey, { account: 'a', expiresAt: 'x' })).toEqual({
      code: 'unknown_field',
      param: 'expiresAt',
      message: 'Unknown field "expiresAt"; known: account, group, role, name, expires_at, models, limits, budget, tasks.',
    });
    expect(await refusal(updateKey, { limits: { rpm: 5 } })).toMatchObject({
      param: 'rpm',
      message: 'Unknown field "rpm"; known: requests_per_minute, tokens_per_minute, concurrent_streams.',
    });
    expect(await refusal(updateAccount, { name: 'x', id: 'other' })).toMatchObject({
      code: 'unknown_field',
      message: expect.stringContaining('known: name.'),
    });
  });

  it('an unknown field comes before a bad one, and fields are read in order', async () => {
    expect((await refusal(createKey, { account: 5, role: 'owner', extra: 1 })).code).toBe('unknown_field');
    expect((await refusal(createKey, { account: 5, role: 'owner' })).code).toBe('missing_account');
    expect((await refusal(updateKey, { name: 42, tasks: 'mine' })).code).toBe('invalid_name');
  });

  it('words each refusal as the API always has', async () => {
    expect((await refusal(updateKey, { limits: { requests_per_minute: 0 } })).message).toBe(
      '"limits.requests_per_minute" must be a whole number from 1 to 1000000000, or null for the gateway default.',
    );
    expect((await refusal(setQuota, { credit_limit: -1 })).message).toBe(
      '"credit_limit" must be a number of credits from 0 to below 100000000000000, or null for unlimited.',
    );
  });

  it('passes a good body through untouched', async () => {
    const body = { account: 'a', group: null, role: null, expires_at: '2030-01-01T00:00:00Z', budget: { credit_limit: null } };
    await expect(checkBody(createKey, body)).resolves.toEqual(body);
  });
});

describe('self-service bodies', () => {
  it('refuses "account" in its own words: a key made here is the caller\'s account\'s', async () => {
    expect(await refusal(selfServiceCreateBody, { account: 'beta' })).toMatchObject({
      code: 'unknown_field',
      param: 'account',
      message: expect.stringContaining("belongs to the caller's own account"),
    });
  });

  it("takes null for the task scope (the caller's own), which the admin API refuses", async () => {
    await expect(checkBody(selfServiceUpdateBody, { tasks: null })).resolves.toEqual({ tasks: null });
    expect((await refusal(updateKey, { tasks: null })).code).toBe('invalid_tasks');
  });
});

describe('audit query', () => {
  it.each([
    [{ limit: 'ten' }, 'invalid_limit', 'limit'],
    [{ limit: '123456' }, 'invalid_limit', 'limit'],
    [{ from: 'yesterday' }, 'invalid_time', 'from'],
    [{ export: 'xml' }, 'invalid_export', 'export'],
    [{ actor: ['a', 'b'] }, 'invalid_parameter', 'actor'],
    [{ action: 'x'.repeat(201) }, 'invalid_parameter', 'action'],
  ])('%j: 400 %s', (query, code, param) => {
    expect(() => auditQuery.check(query)).toThrow(expect.objectContaining({ code, param }));
  });

  it('reads empty values as absent and a month 13 as no time', () => {
    expect(auditFilter(auditQuery.check({ limit: '', export: '', from: '' }))).toMatchObject({ limit: undefined, from: undefined });
    expect(() => auditFilter({ to: '2030-13-01' })).toThrow(expect.objectContaining({ code: 'invalid_time', param: 'to' }));
    expect(auditFilter({ actor: 'key_1' }, 'account').actor).toBe('key:key_1');
  });
});
