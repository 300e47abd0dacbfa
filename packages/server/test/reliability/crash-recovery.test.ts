import { describeCrashRecovery } from './support/crash-suite';

/**
 * SIGKILL during video task processing and during a stream, then a restart on the same DATA_DIR (PGlite there):
 * every accepted task reaches a terminal state with whole content, billed at most once; the cut stream's response
 * is not stored; nothing half-written is visible; the final SIGTERM exits 0. The Postgres twin is
 * crash-recovery.postgres.test.ts; `npm run reliability` runs both with more tasks and more kills.
 */
jest.setTimeout(240_000);

describe('crash recovery on PGlite in DATA_DIR', () => describeCrashRecovery(false));
