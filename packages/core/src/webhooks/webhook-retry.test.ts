import { DEFAULT_WEBHOOK_RETRY, nextAttemptAt } from './webhook-retry';

describe('webhook retry schedule', () => {
  const first = new Date('2026-01-01T00:00:00Z');
  const at = (ms: number) => new Date(first.getTime() + ms);

  it('retries first within 10 s, then with growing delays', () => {
    const d1 = nextAttemptAt(DEFAULT_WEBHOOK_RETRY, 1, first, first)!.getTime() - first.getTime();
    expect(d1).toBeGreaterThan(0);
    expect(d1).toBeLessThanOrEqual(10_000);
    const delays = [1, 2, 3, 4, 5].map((n) => nextAttemptAt(DEFAULT_WEBHOOK_RETRY, n, first, first)!.getTime() - first.getTime());
    for (let i = 1; i < delays.length; i++) expect(delays[i]).toBeGreaterThan(delays[i - 1]!);
  });

  it('keeps trying up to the window (24 h by default) and stops once it is over', () => {
    const day = 24 * 3600_000;
    let now = first;
    let n = 0;
    for (;;) {
      const next = nextAttemptAt(DEFAULT_WEBHOOK_RETRY, ++n, first, now);
      if (!next) break;
      expect(next.getTime()).toBeLessThanOrEqual(first.getTime() + day);
      now = next;
    }
    expect(now.getTime()).toBe(first.getTime() + day);
    expect(n).toBeGreaterThan(5);
    expect(nextAttemptAt(DEFAULT_WEBHOOK_RETRY, 3, first, at(day))).toBeNull();
  });

  it('takes up to the jitter fraction off each delay, never more, so failed deliveries spread out', () => {
    const p = { firstDelayMs: 10_000, factor: 2, maxDelayMs: 3600_000, windowMs: 24 * 3600_000, jitter: 0.2 };
    expect(nextAttemptAt(p, 1, first, first, () => 0)).toEqual(at(10_000));
    expect(nextAttemptAt(p, 1, first, first, () => 0.5)).toEqual(at(9_000));
    expect(nextAttemptAt(p, 2, first, first, () => 0.999999)).toEqual(at(16_000));
    const spread = new Set(Array.from({ length: 50 }, () => nextAttemptAt(p, 1, first, first)!.getTime()));
    expect(spread.size).toBeGreaterThan(1);
    for (const t of spread) expect(t - first.getTime()).toBeGreaterThanOrEqual(8_000);
  });

  it('is configurable', () => {
    const p = { firstDelayMs: 100, factor: 2, maxDelayMs: 300, windowMs: 1000 };
    expect(nextAttemptAt(p, 1, first, first)).toEqual(at(100));
    expect(nextAttemptAt(p, 2, first, at(100))).toEqual(at(300));
    expect(nextAttemptAt(p, 5, first, at(900))).toEqual(at(1000));
  });
});
