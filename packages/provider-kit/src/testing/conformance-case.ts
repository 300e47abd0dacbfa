import { GatewayError } from '@gateway/core';

/**
 * One property of a port, as data: a name and a check that throws when the property does not hold. The same cases
 * run under jest (`describeConformanceCases`) and in `npx gateway adapter:test` (`runConformanceCases`).
 */
export interface ConformanceCase<T> {
  name: string;
  run(target: T): Promise<void>;
}

/** The control routes of a fake upstream (docs/providers/writing-an-adapter.md): POST /__fake/next, GET /__fake/log, POST /__fake/reset. */
export interface FakeControl {
  control(path: string, body?: unknown): Promise<unknown>;
}

export function check(ok: unknown, why: string): asserts ok {
  if (!ok) throw new Error(why);
}

/** The failure p ends with, which must be a GatewayError (the closed error table). */
export async function failure(p: Promise<unknown>): Promise<GatewayError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof GatewayError) return e;
    throw new Error(`expected a failure from the closed error table, got ${String(e)}`);
  }
  throw new Error('expected a failure, got an answer');
}

export const expectReason = (e: GatewayError, reason: string, what: string) =>
  check(e.reason === reason, `${what}: expected ${reason}, got ${e.reason} (${e.message})`);

/** Runs every case in order against one target, printing `PASS name` or `FAIL name: why`; the number that failed. */
export async function runConformanceCases<T>(
  cases: ReadonlyArray<ConformanceCase<T>>,
  target: T,
  opts: { beforeEach?(): Promise<unknown>; out(line: string): void },
): Promise<number> {
  let failed = 0;
  for (const c of cases) {
    await opts.beforeEach?.();
    try {
      await c.run(target);
      opts.out(`PASS ${c.name}`);
    } catch (e) {
      failed++;
      opts.out(`FAIL ${c.name}: ${(e as Error).message}`);
    }
  }
  return failed;
}

/** The jest binding: one `it` per case, against the target `target()` returns once the suite's beforeAll has run. */
export function describeConformanceCases<T>(
  title: string,
  cases: ReadonlyArray<ConformanceCase<T>>,
  target: () => T,
  beforeEachCase?: () => Promise<unknown>,
): void {
  describe(title, () => {
    if (beforeEachCase) beforeEach(beforeEachCase);
    it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => c.run(target()));
  });
}
