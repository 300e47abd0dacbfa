import {
  budgetAlert,
  expiryAlert,
  parseBudgetAlertThresholds,
  reachedThresholds,
  sweepAccountAlerts,
  type AccountAlert,
  type AccountAlertStore,
  type KeyBudgetState,
} from './account-alerts';

const budget = (over: Partial<KeyBudgetState> = {}): KeyBudgetState => ({
  keyId: 'key_1',
  accountId: 'acme',
  name: 'batch',
  limit: 100,
  used: 0,
  period: 'daily',
  periodStart: new Date('2030-01-01T00:00:00Z'),
  ...over,
});
const noon = new Date('2030-01-01T12:00:00Z');

describe('budget alert thresholds', () => {
  it('defaults to 80 and 100; parses, sorts and dedupes percents; refuses anything else by name', () => {
    expect(parseBudgetAlertThresholds(undefined)).toEqual([80, 100]);
    expect(parseBudgetAlertThresholds(' ')).toEqual([80, 100]);
    expect(parseBudgetAlertThresholds('100, 50,50')).toEqual([50, 100]);
    for (const bad of ['80%', '0', '1001', '80,,100', 'half'])
      expect(() => parseBudgetAlertThresholds(bad)).toThrow(/BUDGET_ALERT_THRESHOLDS/);
  });

  it('counts what is used in the current period only, and names the period by its start', () => {
    expect(reachedThresholds(budget({ used: 79.9 }), [80, 100], noon)).toEqual({ reached: [], period: '2030-01-01T00:00:00.000Z' });
    expect(reachedThresholds(budget({ used: 80 }), [80, 100], noon).reached).toEqual([80]);
    expect(reachedThresholds(budget({ used: 130 }), [80, 100], noon).reached).toEqual([80, 100]);
    // used last period: nothing reached in this one
    expect(reachedThresholds(budget({ used: 130 }), [80, 100], new Date('2030-01-02T01:00:00Z'))).toEqual({
      reached: [],
      period: '2030-01-02T00:00:00.000Z',
    });
    expect(reachedThresholds(budget({ used: 90, period: null, periodStart: null }), [80], noon)).toEqual({
      reached: [80],
      period: 'lifetime',
    });
    expect(reachedThresholds(budget({ used: 5, limit: 0 }), [80], noon).reached).toEqual([]);
  });

  it('builds the event bodies: key, numbers and the instant in unix seconds', () => {
    const a = budgetAlert(budget({ used: 85 }), 80, '2030-01-01T00:00:00.000Z', noon);
    expect(JSON.parse(a.body)).toEqual({
      object: 'event',
      id: a.eventId,
      type: 'budget.threshold',
      created_at: noon.getTime() / 1000,
      data: {
        account: 'acme',
        key: { id: 'key_1', name: 'batch' },
        threshold_percent: 80,
        credit_limit: 100,
        credits_used: 85,
        period: 'daily',
        period_start: '2030-01-01T00:00:00.000Z',
      },
    });
    const e = expiryAlert({ keyId: 'key_2', accountId: 'acme', name: null, expiresAt: new Date('2030-01-03T00:00:00Z') }, noon);
    expect(e.once).toEqual({ threshold: 0, period: '2030-01-03T00:00:00.000Z' });
    expect(JSON.parse(e.body).data).toEqual({ account: 'acme', key: { id: 'key_2', name: null }, expires_at: '2030-01-03T00:00:00.000Z' });
  });
});

describe('sweepAccountAlerts', () => {
  it('asks from the lowest threshold, sends each reached threshold and each expiring key, and counts what the store took', async () => {
    const sent: AccountAlert[] = [];
    const seen = new Set<string>();
    let asked: number | undefined;
    let window: [Date, Date] | undefined;
    const store: AccountAlertStore = {
      budgetsAtLeast: async (min) => ((asked = min), [budget({ used: 100 })]),
      keysExpiringBy: async (now, until) => ((window = [now, until]), [{ keyId: 'key_2', accountId: 'acme', name: null, expiresAt: noon }]),
      sendOnce: async (a) => {
        const id = `${a.keyId}/${a.type}/${a.once.threshold}/${a.once.period}`;
        if (seen.has(id)) return false;
        seen.add(id);
        sent.push(a);
        return true;
      },
    };
    const opts = { budgetThresholds: [50, 100], expiryLeadMs: 3_600_000 };
    expect(await sweepAccountAlerts(store, opts, noon)).toBe(3);
    expect(asked).toBe(50);
    expect(window).toEqual([noon, new Date(noon.getTime() + 3_600_000)]);
    expect(sent.map((a) => [a.type, a.once.threshold])).toEqual([
      ['budget.threshold', 50],
      ['budget.threshold', 100],
      ['key.expiring', 0],
    ]);
    expect(await sweepAccountAlerts(store, opts, noon)).toBe(0);
    expect(await sweepAccountAlerts(store, { budgetThresholds: [], expiryLeadMs: 0 }, noon)).toBe(0);
  });
});
