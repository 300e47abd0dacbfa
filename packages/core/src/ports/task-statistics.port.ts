/** Video tasks in one status: how many, and when the oldest of them was created. */
export interface TaskStatusCount {
  status: string;
  count: number;
  oldestCreatedAt: Date | null;
}

/** What the metrics read of the task store at scrape time. */
export interface TaskStatistics {
  countsByStatus(): Promise<TaskStatusCount[]>;
  /** the earliest next poll time of the queued and running tasks; null when none is active */
  earliestDuePoll(): Promise<Date | null>;
}
