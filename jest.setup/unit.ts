// unit lane: pure code and adapters against in-process fakes; PGlite-backed repository suites are the slowest.
jest.setTimeout(30_000);
