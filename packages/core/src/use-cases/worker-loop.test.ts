import { eventually } from '@gateway/testkit';
import { workerLoop, type LoopLogger } from './worker-loop';

/** A round that fails while the "store" is down, as the worker's claim query does in a database outage. */
function storeRound() {
  const state = { down: false, rounds: 0 };
  const round = async () => {
    state.rounds++;
    if (state.down) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
  };
  return { state, round };
}

function capturedLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const logger: LoopLogger = { log: (level, message, fields) => void lines.push({ level, message, ...fields }) };
  return { lines, logger };
}

describe('the video worker loop in a store outage', () => {
  it('logs the outage once at warn however many rounds fail, and the recovery once, then keeps running', async () => {
    const { state, round } = storeRound();
    const { lines, logger } = capturedLogger();
    const loop = workerLoop(round, 1, logger);
    let audited = 0;
    loop.start(async () => void audited++);
    loop.start(async () => void audited++); // a second start does nothing
    try {
      await eventually(() => expect(state.rounds).toBeGreaterThanOrEqual(3));
      state.down = true;
      const failingFrom = state.rounds;
      await eventually(() => expect(state.rounds - failingFrom).toBeGreaterThanOrEqual(20));
      state.down = false;
      await eventually(() => expect(lines.some((l) => l.message === 'video worker rounds: succeeding again')).toBe(true));
      const afterRecovery = state.rounds;
      await eventually(() => expect(state.rounds - afterRecovery).toBeGreaterThanOrEqual(5));
    } finally {
      await loop.stop();
    }
    expect(audited).toBe(1);
    expect(lines.map((l) => [l.level, l.message])).toEqual([
      ['warn', 'video worker rounds: failing, retrying'],
      ['warn', 'video worker rounds: succeeding again'],
    ]);
    expect(lines[0]).toMatchObject({ error: 'connect ECONNREFUSED 127.0.0.1:5432' });
    expect(Number(lines[1]!.failures)).toBeGreaterThanOrEqual(20);
  });

  it('a second outage is logged again, once', async () => {
    const { state, round } = storeRound();
    const { lines, logger } = capturedLogger();
    const loop = workerLoop(round, 1, logger);
    loop.start();
    const outage = async () => {
      state.down = true;
      const from = state.rounds;
      await eventually(() => expect(state.rounds - from).toBeGreaterThanOrEqual(5));
      const recoveries = lines.filter((l) => l.message === 'video worker rounds: succeeding again').length;
      state.down = false;
      await eventually(() =>
        expect(lines.filter((l) => l.message === 'video worker rounds: succeeding again')).toHaveLength(recoveries + 1),
      );
    };
    try {
      await outage();
      await outage();
    } finally {
      await loop.stop();
    }
    expect(lines.map((l) => l.message)).toEqual([
      'video worker rounds: failing, retrying',
      'video worker rounds: succeeding again',
      'video worker rounds: failing, retrying',
      'video worker rounds: succeeding again',
    ]);
  });
});

/** Timers that fire only when the test moves the clock: nothing here waits on a real interval. */
function manualTimers() {
  let now = 0;
  let seq = 0;
  const pending = new Map<number, { at: number; fn: () => void }>();
  const flush = () => new Promise<void>((r) => setImmediate(r));
  return {
    timers: {
      now: () => now,
      setTimeout: (fn: () => void, ms: number) => (pending.set(++seq, { at: now + ms, fn }), seq),
      clearTimeout: (id: unknown) => void pending.delete(id as number),
    },
    /** when the next timer is due (Infinity: none) */
    nextAt: () => Math.min(...[...pending.values()].map((t) => t.at)),
    /** moves the clock to `to`, firing each timer due on the way, and lets the rounds they start settle */
    async advance(to: number) {
      for (;;) {
        const [id, t] = [...pending.entries()].sort(([, a], [, b]) => a.at - b.at)[0] ?? [];
        if (id === undefined || t!.at > to) break;
        pending.delete(id);
        now = t!.at;
        t!.fn();
        await flush();
      }
      now = to;
      await flush();
    },
    flush,
  };
}

/** A round the test ends when it wants: `rounds` counts starts, `finish()` ends the one in flight. */
function heldRound() {
  const state = { rounds: 0, startedAt: [] as number[] };
  let end: (() => void) | undefined;
  return {
    state,
    round: (now: () => number) => () => {
      state.rounds++;
      state.startedAt.push(now());
      return new Promise<void>((r) => (end = r));
    },
    finish: () => end?.(),
  };
}

describe('the video worker loop wakes on task changes', () => {
  const POLL = 60_000;

  it('a change notice starts a round at once, without the poll interval passing; the poll stays the fallback', async () => {
    const t = manualTimers();
    const held = heldRound();
    const { logger } = capturedLogger();
    const loop = workerLoop(held.round(t.timers.now), POLL, logger, { timers: t.timers, wakeGapMs: 100 });
    // a task change notice wakes the loop, as the gateway wires the change feed (webhooks.ts: onAny → wake)
    const notify = () => loop.wake();
    loop.start();
    await t.flush();
    expect({ rounds: held.state.rounds, nextAt: t.nextAt() }).toEqual({ rounds: 0, nextAt: POLL });

    notify();
    expect(held.state.rounds).toBe(1); // started by the notice itself: the clock has not moved
    expect(held.state.startedAt).toEqual([0]);
    held.finish();
    await t.flush();
    expect(t.nextAt()).toBe(POLL); // back to the fallback poll

    await t.advance(POLL);
    expect(held.state.startedAt).toEqual([0, POLL]); // no notice: the poll runs the round
    held.finish();
    await loop.stop();
  });

  it('notices during a round make one more round after it, no sooner than the wake gap after the last start', async () => {
    const t = manualTimers();
    const held = heldRound();
    const { logger } = capturedLogger();
    const loop = workerLoop(held.round(t.timers.now), POLL, logger, { timers: t.timers, wakeGapMs: 100 });
    loop.start();
    await t.flush();
    loop.wake();
    expect(held.state.rounds).toBe(1);
    for (let i = 0; i < 5; i++) loop.wake(); // a burst while the round runs
    await t.advance(30);
    held.finish();
    await t.flush();
    expect({ rounds: held.state.rounds, nextAt: t.nextAt() }).toEqual({ rounds: 1, nextAt: 100 });
    await t.advance(100);
    expect(held.state.startedAt).toEqual([0, 100]);
    held.finish();
    await t.flush();
    expect(t.nextAt()).toBe(100 + POLL); // the burst was one round; then the poll again

    // a notice soon after a round waits out the gap, then runs
    loop.wake();
    expect({ rounds: held.state.rounds, nextAt: t.nextAt() }).toEqual({ rounds: 2, nextAt: 200 });
    await t.advance(200);
    expect(held.state.startedAt).toEqual([0, 100, 200]);
    held.finish();
    await loop.stop();
    loop.wake(); // after stop: nothing
    expect(held.state.rounds).toBe(3);
  });
});
