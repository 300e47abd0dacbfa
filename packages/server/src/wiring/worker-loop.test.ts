import { Writable } from 'node:stream';
import { eventually } from '@gateway/testkit';
import { createLogger } from '../logger';
import { workerLoop } from './worker-loop';

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
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { lines, logger: createLogger('debug', { stream, format: 'json' }) };
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
