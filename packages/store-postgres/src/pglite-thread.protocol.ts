/** The messages between the gateway's event loop (pglite-thread-client.ts) and PGlite's thread (pglite-thread.ts). */

/** What the thread opens (its workerData): a data directory, or memory; memory may start from a dump (`image`). */
export interface EmbeddedPlace {
  dir?: string;
  /** a tarball of PGlite's dumpDataDir: the in-memory database starts from it instead of initdb (tests) */
  image?: string;
}

export type ToThread =
  | { id: number; type: 'query'; sql: string; params?: unknown[]; options?: unknown }
  | { id: number; type: 'listen'; channel: string }
  | { id: number; type: 'unlisten'; subscription: number }
  | { id: number; type: 'close' };

/** A database error as it crosses: name, message and stack, plus its own fields (code, detail, constraint, table, ...). */
export interface ThreadError {
  name: string;
  message: string;
  stack?: string;
  fields: Record<string, unknown>;
}

export type FromThread =
  | { type: 'ready'; error?: ThreadError }
  | { type: 'notify'; subscription: number; payload: string }
  | { type: 'answer'; id: number; result?: unknown; error?: ThreadError };
