/**
 * Tells a listener that a task's status or progress changed, on any instance (PostgreSQL LISTEN/NOTIFY, PGlite's
 * own listen). A hint to read again, never the data itself: a missed hint costs latency, not correctness.
 */
export interface TaskChangeFeed {
  /** calls `onChange` after every committed change of the task; returns the unsubscribe */
  subscribe(taskId: string, onChange: () => void): () => void;
}
