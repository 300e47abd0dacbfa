import type { Knex } from 'knex';

/**
 * The deployment a video task was bound to at admission ({provider, upstreamModel}): submit uses it, so a config
 * change between admission and submit cannot move the task to another upstream. Null on older rows (resolved at submit).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('video_tasks', (t) => {
    t.jsonb('deployment');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('video_tasks', (t) => t.dropColumn('deployment'));
}
