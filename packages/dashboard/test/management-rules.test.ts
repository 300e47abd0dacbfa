import { keySettings, keyState, formOf, EMPTY_KEY_FORM, type KeyView } from '../src/key-settings';
import { mayOpen, navFor } from '../src/roles';
import { priceLines } from '../src/prices';
import { groupLabel, rangeOf, spendOverTime, spendPath } from '../src/usage-analytics';

/** The management pages' pure rules: who sees which page, a key's state and settings, prices, usage ranges. */
describe('navigation by role', () => {
  const labels = (c: Parameters<typeof navFor>[0]) => navFor(c).map((n) => n.label);

  it('a member sees no page it cannot use', () => {
    expect(labels('member')).toEqual(['Overview', 'Usage', 'Tasks', 'Batches', 'Models', 'Playground']);
    for (const section of ['keys', 'accounts', 'catalogue', 'mcp', 'webhooks', 'audit']) expect(mayOpen('member', section)).toBe(false);
  });

  it('an account admin manages keys, webhooks and reads its audit slice; only the platform admin has accounts and the catalogue', () => {
    expect(labels('admin')).toEqual(['Overview', 'Keys', 'Webhooks', 'Usage', 'Tasks', 'Batches', 'Models', 'Audit', 'Playground']);
    expect(labels('platform')).toEqual([
      'Overview',
      'Accounts',
      'Catalogue',
      'MCP servers',
      'Keys',
      'Usage',
      'Tasks',
      'Batches',
      'Models',
      'Audit',
      'Playground',
    ]);
    expect(mayOpen('admin', 'accounts')).toBe(false);
    expect(mayOpen('admin', 'mcp')).toBe(false);
    expect(mayOpen('platform', 'webhooks')).toBe(false);
  });
});

describe('keys', () => {
  const now = Date.parse('2030-01-01T00:00:00Z');
  it('is active, expired (its expiry passed) or revoked (revoked wins)', () => {
    expect(keyState({ revoked_at: null, expires_at: null }, now)).toBe('active');
    expect(keyState({ revoked_at: null, expires_at: '2031-01-01T00:00:00Z' }, now)).toBe('active');
    expect(keyState({ revoked_at: null, expires_at: '2029-12-31T00:00:00Z' }, now)).toBe('expired');
    expect(keyState({ revoked_at: '2029-06-01T00:00:00Z', expires_at: '2029-12-31T00:00:00Z' }, now)).toBe('revoked');
  });

  it('a creation sends only the fields filled in; an edit sends every field, empty ones as null (back to the default)', () => {
    const f = { ...EMPTY_KEY_FORM, name: ' ci ', models: 'a, b,', budget: '10', period: 'daily', rpm: '60' };
    expect(keySettings(f, 'create')).toEqual({
      name: 'ci',
      role: 'member',
      models: ['a', 'b'],
      budget: { credit_limit: 10, period: 'daily' },
      limits: { requests_per_minute: 60, tokens_per_minute: null, concurrent_streams: null },
    });
    expect(keySettings(EMPTY_KEY_FORM, 'create')).toEqual({ role: 'member' });
    expect(keySettings({ ...EMPTY_KEY_FORM, budget: '5', period: 'none' }, 'edit')).toEqual({
      name: null,
      role: 'member',
      expires_at: null,
      models: null,
      budget: { credit_limit: 5, period: null },
      limits: { requests_per_minute: null, tokens_per_minute: null, concurrent_streams: null },
    });
  });

  it('an edit starts from the key as it is', () => {
    const k: KeyView = {
      id: 'key_1',
      account: 'a',
      group: 'g',
      role: 'admin',
      name: 'n',
      prefix: 'sk-x',
      created_at: '2030-01-01T00:00:00Z',
      revoked_at: null,
      expires_at: null,
      models: ['m'],
      limits: { requests_per_minute: 5, tokens_per_minute: null, concurrent_streams: 2 },
      budget: { credit_limit: 3, period: null, credits_used: 1 },
    };
    expect(keySettings(formOf(k), 'edit')).toEqual({
      name: 'n',
      role: 'admin',
      expires_at: null,
      models: ['m'],
      budget: { credit_limit: 3, period: null },
      limits: { requests_per_minute: 5, tokens_per_minute: null, concurrent_streams: 2 },
    });
  });
});

describe('prices', () => {
  it('renders video prices per second by resolution, tokens per million, images each', () => {
    expect(priceLines({ perVideoSecond: { '720p': 0.05, '1080p': 0.1 } })).toEqual([
      '720p: 0.05 credits / second',
      '1080p: 0.1 credits / second',
    ]);
    expect(priceLines({ inputPerMillionTokens: 2, outputPerMillionTokens: 8, perImage: 0.04 })).toEqual([
      'input: 2 credits / 1M tokens',
      'output: 8 credits / 1M tokens',
      '0.04 credits / image',
    ]);
    expect(priceLines(undefined)).toEqual([]);
  });
});

describe('usage over a range', () => {
  const now = Date.parse('2030-01-08T00:00:00Z');
  it('a preset starts that long ago and stays open; a custom range keeps its ends', () => {
    expect(rangeOf('7d', '', '', now)).toEqual({ from: '2030-01-01T00:00:00.000Z', to: undefined });
    expect(rangeOf('custom', '', '', now)).toEqual({ from: undefined, to: undefined });
  });

  it("reads the platform admin's totals from /admin/usage and an account's from /v1/usage, grouped over the whole range", () => {
    const scope = { from: '2030-01-01T00:00:00.000Z', model: 'm' };
    expect(spendPath('platform', 'model', scope)).toBe('/admin/usage?group_by=model&from=2030-01-01T00%3A00%3A00.000Z&model=m&limit=1000');
    expect(spendPath('admin', 'key', scope)).toBe('/v1/usage?group_by=key&start_time=2030-01-01T00%3A00%3A00.000Z&model=m&limit=1000');
  });

  it('names a key by its name, and puts days oldest first with refunds taken off', () => {
    expect(groupLabel({ group: 'key_1', key_name: 'ci', requests: 1, credits: 1, refunds: 0 })).toBe('ci');
    expect(groupLabel({ group: 'key_2', key_name: null, requests: 1, credits: 1, refunds: 0 })).toBe('key_2');
    expect(
      spendOverTime([
        { group: '2030-01-02', requests: 2, credits: 5, refunds: 1 },
        { group: '2030-01-01', requests: 1, credits: 1, refunds: 0 },
      ]),
    ).toEqual([
      { label: '2030-01-01', credits: 1, requests: 1 },
      { label: '2030-01-02', credits: 4, requests: 2 },
    ]);
  });
});
