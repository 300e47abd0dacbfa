/** How often a credit quota starts again from zero; null = never (a lifetime quota). */
export type BudgetPeriod = 'daily' | 'monthly';

/** When the period containing `now` began: midnight UTC of the day, or of the month's first day. */
export function periodStart(period: BudgetPeriod, now: Date): Date {
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  return period === 'daily' ? new Date(Date.UTC(y, m, now.getUTCDate())) : new Date(Date.UTC(y, m, 1));
}

/** When the period containing `now` ends (the next one's start). */
export function periodEnd(period: BudgetPeriod, now: Date): Date {
  const start = periodStart(period, now);
  return period === 'daily'
    ? new Date(start.getTime() + 86_400_000)
    : new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
}

/** What a quota has used in the current period: credits counted since an earlier period's start are gone. */
export function usedInPeriod(q: { used: number; period: BudgetPeriod | null; periodStart: Date | null }, now: Date): number {
  if (!q.period) return q.used;
  return q.periodStart && q.periodStart.getTime() >= periodStart(q.period, now).getTime() ? q.used : 0;
}
