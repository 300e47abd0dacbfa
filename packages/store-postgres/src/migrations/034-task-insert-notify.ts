import type { Knex } from 'knex';

/**
 * A new task is announced on the task change channel too (015 announces status and progress changes), so the video
 * workers of every instance claim it at once instead of at their next poll. Live-status streams watch no new id, so
 * the notice costs them nothing.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`create trigger video_tasks_created after insert on video_tasks for each row
    execute function gateway_task_changed()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop trigger if exists video_tasks_created on video_tasks');
}
