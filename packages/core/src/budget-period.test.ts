import { periodEnd, periodStart, usedInPeriod } from './budget-period';

describe('budget periods (UTC)', () => {
  it('starts a day at midnight UTC and a month on its first day, whatever the local zone', () => {
    const t = new Date('2030-03-31T23:59:59.999Z');
    expect(periodStart('daily', t).toISOString()).toBe('2030-03-31T00:00:00.000Z');
    expect(periodEnd('daily', t).toISOString()).toBe('2030-04-01T00:00:00.000Z');
    expect(periodStart('monthly', t).toISOString()).toBe('2030-03-01T00:00:00.000Z');
    expect(periodEnd('monthly', t).toISOString()).toBe('2030-04-01T00:00:00.000Z');
    expect(periodEnd('monthly', new Date('2030-12-15T00:00:00Z')).toISOString()).toBe('2031-01-01T00:00:00.000Z');
  });

  it('counts used credits only within the current period; a lifetime quota never resets', () => {
    const q = { used: 7, period: 'daily' as const, periodStart: new Date('2030-03-31T00:00:00Z') };
    expect(usedInPeriod(q, new Date('2030-03-31T23:59:59Z'))).toBe(7);
    expect(usedInPeriod(q, new Date('2030-04-01T00:00:00Z'))).toBe(0);
    expect(usedInPeriod({ ...q, period: null }, new Date('2040-01-01T00:00:00Z'))).toBe(7);
    expect(usedInPeriod({ ...q, periodStart: null }, new Date('2030-03-31T01:00:00Z'))).toBe(0);
  });
});
