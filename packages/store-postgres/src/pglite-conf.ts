/**
 * PGlite's settings, one list for every place that opens it. Its buffer cache is the gateway's RSS, and WASM memory
 * once grown is never returned: 8 MB instead of Postgres's 128 MB default made the idle process ~25 MB smaller and
 * ~60 MB smaller after load than at 32 MB, at no CPU cost measured (bench/results/levers.md); the files stay in the
 * OS page cache.
 */
export const PGLITE_CONF = ['shared_buffers=8MB'];
