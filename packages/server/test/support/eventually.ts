/** Retries an assertion until it passes or `ms` runs out, then rethrows its last failure. */
export async function eventually(check: () => unknown | Promise<unknown>, ms = 5000, stepMs = 100): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      await check();
      return;
    } catch (e) {
      if (Date.now() > until) throw e;
      await new Promise((r) => setTimeout(r, stepMs));
    }
  }
}
