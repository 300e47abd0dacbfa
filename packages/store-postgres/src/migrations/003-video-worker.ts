import type { Knex } from 'knex';

/** Worker bookkeeping beyond 001: the unfinished-submission marker and the indexes claims and purges use. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('video_tasks', (t) => {
    // set while a worker is submitting and no operation ref is stored yet: the outcome of that submission is unknown
    t.timestamp('submit_started_at', { useTz: true });
  });
  await knex.raw("create index video_tasks_due on video_tasks (next_poll_at) where status in ('queued', 'running')");
  await knex.raw('create index video_tasks_created on video_tasks (created_at)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists video_tasks_created');
  await knex.raw('drop index if exists video_tasks_due');
  await knex.schema.alterTable('video_tasks', (t) => t.dropColumn('submit_started_at'));
}
