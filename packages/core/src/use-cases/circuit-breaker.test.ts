import { CircuitBreaker } from './circuit-breaker';

function clock(start = 1_000) {
  let t = start;
  return {
    now: () => t,
    advance: (ms: number) => {
      t += ms;
    },
  };
}

const fail = (b: CircuitBreaker, n: number) => {
  for (let i = 0; i < n; i++) b.onFailure(b.acquire()!);
};

describe('CircuitBreaker', () => {
  it('opens after N consecutive failures and refuses calls while open', () => {
    const c = clock();
    const b = new CircuitBreaker({ consecutiveFailures: 3, coolDownMs: 1000 }, c.now);
    fail(b, 2);
    expect(b.state).toBe('closed');
    fail(b, 1);
    expect(b.state).toBe('open');
    expect(b.acquire()).toBeNull();
  });

  it('a success resets the consecutive count', () => {
    const b = new CircuitBreaker({ consecutiveFailures: 3, minimumCalls: 100 });
    fail(b, 2);
    b.onSuccess(b.acquire()!);
    fail(b, 2);
    expect(b.state).toBe('closed');
  });

  it('opens on the failure ratio over the window once minimumCalls outcomes are in', () => {
    const b = new CircuitBreaker({ consecutiveFailures: 100, failureRatio: 0.5, windowSize: 10, minimumCalls: 6 });
    for (let i = 0; i < 3; i++) {
      b.onSuccess(b.acquire()!);
      b.onFailure(b.acquire()!);
    }
    expect(b.state).toBe('open');
  });

  it('stays closed below the ratio or below minimumCalls', () => {
    const b = new CircuitBreaker({ consecutiveFailures: 100, failureRatio: 0.5, windowSize: 10, minimumCalls: 6 });
    b.onFailure(b.acquire()!);
    b.onFailure(b.acquire()!);
    expect(b.state).toBe('closed');
    for (let i = 0; i < 6; i++) b.onSuccess(b.acquire()!);
    b.onFailure(b.acquire()!);
    expect(b.state).toBe('closed');
  });

  it('after the cool-down lets exactly one probe through; its success closes the circuit', () => {
    const c = clock();
    const b = new CircuitBreaker({ consecutiveFailures: 1, coolDownMs: 1000 }, c.now);
    fail(b, 1);
    c.advance(999);
    expect(b.acquire()).toBeNull();
    c.advance(1);
    expect(b.state).toBe('half-open');
    const probe = b.acquire();
    expect(probe).toEqual({ probe: true });
    expect(b.acquire()).toBeNull();
    b.onSuccess(probe!);
    expect(b.state).toBe('closed');
    expect(b.acquire()).toEqual({ probe: false });
  });

  it('a failed probe opens the circuit for another cool-down', () => {
    const c = clock();
    const b = new CircuitBreaker({ consecutiveFailures: 1, coolDownMs: 1000 }, c.now);
    fail(b, 1);
    c.advance(1000);
    b.onFailure(b.acquire()!);
    expect(b.state).toBe('open');
    c.advance(500);
    expect(b.acquire()).toBeNull();
    c.advance(500);
    expect(b.acquire()).toEqual({ probe: true });
  });

  it('a neutral probe frees the slot for the next probe', () => {
    const c = clock();
    const b = new CircuitBreaker({ consecutiveFailures: 1, coolDownMs: 1000 }, c.now);
    fail(b, 1);
    c.advance(1000);
    b.onNeutral(b.acquire()!);
    expect(b.acquire()).toEqual({ probe: true });
  });

  it('a probe that never reports does not wedge the circuit', () => {
    const c = clock();
    const b = new CircuitBreaker({ consecutiveFailures: 1, coolDownMs: 1000 }, c.now);
    fail(b, 1);
    c.advance(1000);
    expect(b.acquire()).not.toBeNull();
    c.advance(1000);
    expect(b.acquire()).toEqual({ probe: true });
  });

  it('ignores late outcomes of calls admitted before the circuit opened', () => {
    const b = new CircuitBreaker({ consecutiveFailures: 2, coolDownMs: 1000 }, clock().now);
    const late = b.acquire()!;
    fail(b, 2);
    b.onSuccess(late);
    expect(b.state).toBe('open');
  });
});
