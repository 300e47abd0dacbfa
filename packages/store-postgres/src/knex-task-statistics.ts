import type { Knex } from 'knex';
import type { TaskStatistics, TaskStatusCount } from '@gateway/core';

/** The task figures of /metrics, read with one aggregate query each. */
export class KnexTaskStatistics implements TaskStatistics {
  constructor(private readonly knex: Knex) {}

  async countsByStatus(): Promise<TaskStatusCount[]> {
    const rows = (await this.knex('video_tasks')
      .select('status')
      .count({ n: '*' })
      .min({ oldest: 'created_at' })
      .groupBy('status')) as Array<{
      status: string;
      n: number | string;
      oldest: Date | string | null;
    }>;
    return rows.map((r) => ({ status: r.status, count: Number(r.n), oldestCreatedAt: r.oldest ? new Date(r.oldest) : null }));
  }

  async earliestDuePoll(): Promise<Date | null> {
    const [row] = (await this.knex('video_tasks').whereIn('status', ['queued', 'running']).min({ due: 'next_poll_at' })) as Array<{
      due: Date | string | null;
    }>;
    return row?.due ? new Date(row.due) : null;
  }
}
