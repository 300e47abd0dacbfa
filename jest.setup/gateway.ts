// gateway lane: the real app in this process. A test gets 30 s; a test that starts several gateways, or opens PGlite
// on disk, says so with its own timeout.
jest.setTimeout(30_000);

// Set-up and tear-down hooks are where gateways boot and PGlite opens in memory: 6–9 s on a 2-core machine at a load
// of 12, past 30 s when a second test run shares the machine. A hook that names no timeout gets two minutes, so a
// slow start is not reported as a failed test; the tests themselves keep the 30 s above.
const HOOK_TIMEOUT_MS = 120_000;
type Hook = typeof beforeAll;
const withHookTimeout =
  (hook: Hook): Hook =>
  (fn, timeout) =>
    hook(fn, timeout ?? HOOK_TIMEOUT_MS);
global.beforeAll = withHookTimeout(beforeAll);
global.beforeEach = withHookTimeout(beforeEach);
global.afterAll = withHookTimeout(afterAll);
global.afterEach = withHookTimeout(afterEach);
