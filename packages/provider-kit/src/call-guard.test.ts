import { CallGuard } from './call-guard';

/** Fake timers and a fake `performance.now()`: the clocks are read, never slept on. */
beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

const timeouts = { connectMs: 1_000, firstByteMs: 5_000, idleMs: 2_000, totalMs: 60_000 };
const phaseOf = (g: CallGuard) => g.translate(new Error('aborted')).upstreamCode;

it('the first-byte clock runs out when no headers arrive, and only one timer is ever pending', () => {
  const g = new CallGuard(timeouts);
  expect(jest.getTimerCount()).toBe(1);
  jest.advanceTimersByTime(4_999);
  expect(g.aborted).toBe(false);
  expect(jest.getTimerCount()).toBe(1);
  jest.advanceTimersByTime(1);
  expect(g.aborted).toBe(true);
  expect(phaseOf(g)).toBe('first byte');
});

it('after the headers the idle clock counts from the last chunk; chunks keep the call alive without re-arming', () => {
  const g = new CallGuard(timeouts);
  let fired = 0;
  jest.advanceTimersByTime(4_000);
  g.onAbort(() => fired++);
  g.headersReceived();
  for (let i = 0; i < 10; i++) {
    jest.advanceTimersByTime(1_500);
    g.touch();
    expect(jest.getTimerCount()).toBe(1);
  }
  expect(g.aborted).toBe(false); // 19 s in: past the first-byte limit, never idle for 2 s
  jest.advanceTimersByTime(1_999);
  expect(g.aborted).toBe(false);
  jest.advanceTimersByTime(1);
  expect({ aborted: g.aborted, phase: phaseOf(g), fired }).toEqual({ aborted: true, phase: 'idle', fired: 1 });
});

it('the total clock ends a call that never goes quiet', () => {
  const g = new CallGuard({ ...timeouts, totalMs: 10_000 });
  g.headersReceived();
  for (let t = 500; t < 10_000; t += 500) {
    jest.advanceTimersByTime(500);
    g.touch();
  }
  expect(g.aborted).toBe(false);
  jest.advanceTimersByTime(500);
  expect(phaseOf(g)).toBe('total');
});

it('an idle limit shorter than the first-byte one still holds from the headers on', () => {
  const g = new CallGuard({ ...timeouts, firstByteMs: 300_000, idleMs: 120_000, totalMs: 900_000 });
  jest.advanceTimersByTime(100_000);
  g.headersReceived(); // idle runs out at 220 s, long before the first-byte limit would have
  jest.advanceTimersByTime(119_999);
  expect(g.aborted).toBe(false);
  jest.advanceTimersByTime(1);
  expect(phaseOf(g)).toBe('idle');
});

it('finish clears the timer and the client listener; a client abort aborts the call, also one aborted already', () => {
  const client = new AbortController();
  const g = new CallGuard(timeouts, client.signal);
  const aborts: Error[] = [];
  g.onAbort((e) => aborts.push(e));
  const h = new CallGuard(timeouts, client.signal);
  h.finish();
  expect(jest.getTimerCount()).toBe(1);
  client.abort();
  expect({ g: g.aborted, h: h.aborted, aborts: aborts.length }).toEqual({ g: true, h: false, aborts: 1 });
  expect(g.translate(aborts[0])).toMatchObject({ code: 'client_closed' });
  g.finish();
  expect(jest.getTimerCount()).toBe(0);
  // a call whose caller left before it started is aborted as soon as the sender hands over its abort
  const late = new CallGuard(timeouts, client.signal);
  let lateAborted = false;
  late.onAbort(() => (lateAborted = true));
  expect(lateAborted).toBe(true);
  late.finish();
});
