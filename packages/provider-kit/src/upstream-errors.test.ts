import { CONNECT_TIMEOUT_CODE } from './keep-alive-agents';
import { mapTransportFailure, mapUpstreamStatus, parseRetryAfter, upstreamTaskNotFound, type UpstreamFailure } from './upstream-errors';

const failure = (status: number, headers: Record<string, string> = {}): UpstreamFailure => ({ status, headers, bodyText: '' });

describe('mapUpstreamStatus', () => {
  it.each([
    [400, 'invalid_request', false],
    [401, 'upstream_error', false],
    [403, 'upstream_error', false],
    [404, 'invalid_request', false],
    [408, 'upstream_timeout', true],
    [413, 'payload_too_large', false],
    [422, 'invalid_request', false],
    [429, 'rate_limited', true],
    [500, 'upstream_unavailable', true],
    [502, 'upstream_unavailable', true],
    [503, 'upstream_unavailable', true],
    [504, 'upstream_unavailable', true],
    [529, 'upstream_unavailable', true],
    [418, 'upstream_error', false],
    [302, 'upstream_error', false],
  ])('%i → %s (retryable %s)', (status, reason, retryable) => {
    const e = mapUpstreamStatus(failure(status), {});
    expect(e.reason).toBe(reason);
    expect(e.retryable).toBe(retryable);
    expect(e.upstreamStatus).toBe(status);
  });

  it('keeps the upstream message of a 400 and never repeats one of a 401', () => {
    expect(mapUpstreamStatus(failure(400), { message: 'max_tokens: too large' }).message).toBe('max_tokens: too large');
    const auth = mapUpstreamStatus(failure(401), { message: 'Incorrect API key provided: sk-abc***xyz' });
    expect(auth.message).not.toContain('sk-abc');
    expect(auth.message).toMatch(/gateway's upstream credentials/);
  });

  it('carries Retry-After on a 429', () => {
    expect(mapUpstreamStatus(failure(429, { 'retry-after': '12' }), {}).retryAfterSeconds).toBe(12);
  });
});

describe('parseRetryAfter', () => {
  const now = () => Date.parse('2026-01-01T00:00:00Z');
  it.each([
    [{ 'retry-after': '3' }, 3],
    [{ 'retry-after': '0.5' }, 0.5],
    [{ 'retry-after-ms': '250', 'retry-after': '9' }, 0.25],
    [{ 'retry-after': 'Thu, 01 Jan 2026 00:00:30 GMT' }, 30],
    [{ 'retry-after': 'soon' }, undefined],
    [{ 'retry-after': '-4' }, undefined],
    [{}, undefined],
  ])('%j → %s', (headers, expected) => {
    expect(parseRetryAfter(headers, now)).toBe(expected);
  });
});

describe('mapTransportFailure', () => {
  it.each([
    ['ECONNREFUSED', 'upstream_unavailable'],
    ['ECONNRESET', 'upstream_unavailable'],
    ['ENOTFOUND', 'upstream_unavailable'],
    ['EPIPE', 'upstream_unavailable'],
    [CONNECT_TIMEOUT_CODE, 'upstream_timeout'],
    ['ETIMEDOUT', 'upstream_timeout'],
  ])('%s → %s', (code, reason) => {
    expect(mapTransportFailure(Object.assign(new Error('x'), { code })).reason).toBe(reason);
  });

  it('names the timer that fired', () => {
    expect(mapTransportFailure(new Error('aborted'), 'idle')).toMatchObject({ reason: 'upstream_timeout', upstreamCode: 'idle' });
  });
});

describe('upstreamTaskNotFound', () => {
  it('is a 404 upstream_task_not_found naming the upstream and the id, quoted and cut to 100 characters', () => {
    const err = upstreamTaskNotFound('Ark', 'no longer knows task', `cgt-${'x'.repeat(200)}`);
    expect(err).toMatchObject({ reason: 'upstream_error', code: 'upstream_task_not_found', upstreamStatus: 404 });
    expect(err.message).toBe(`The upstream (Ark) no longer knows task "cgt-${'x'.repeat(96)}".`);
  });
});
