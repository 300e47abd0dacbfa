// gateway lane: the real app in this process; one start boots PGlite in memory (6–9 s seen on a 2-core machine at a
// load of 12). A test that starts several gateways, or opens PGlite on disk, says so with its own timeout.
jest.setTimeout(30_000);
