/**
 * How tests wait: retry `check` until it passes (returns anything but `false` without throwing) or `ms` runs
 * out, then fail with its last error. Waiting for what should happen, never sleeping and then asserting, keeps a test
 * true on a loaded machine. Resolves to `true`, so `expect(await eventually(...)).toBe(true)` reads as it should.
 */
export async function eventually(check: () => unknown, ms = 5000, stepMs = 20): Promise<true> {
  const until = Date.now() + ms;
  for (;;) {
    let failure: unknown;
    try {
      if ((await check()) !== false) return true;
      failure = new Error(`eventually: the condition did not hold within ${ms} ms`);
    } catch (e) {
      failure = e;
    }
    if (Date.now() > until) throw failure;
    await new Promise((r) => setTimeout(r, stepMs));
  }
}
