import type { Knex } from 'knex';

/**
 * Billing on what was delivered: a video task's usage rows show the requested duration and resolution (creation
 * and settlement rows) and the delivered ones (the settlement row). A task's billing state gains `settled`
 * (succeeded and charged on its delivery, the difference given back).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('usage_log', (t) => {
    t.decimal('video_requested_seconds', 12, 3);
    t.text('video_requested_resolution');
    t.decimal('video_delivered_seconds', 12, 3);
    t.text('video_delivered_resolution');
  });
  // Tasks that succeeded before this rule keep the charge they had: the sweep settles only what succeeds from now on.
  await knex('video_tasks')
    .where({ status: 'succeeded' })
    .whereIn('billing_state', ['none', 'charged'])
    .update({ billing_state: 'settled' });
  // The settlement sweep looks for succeeded tasks still charged (or never charged): a partial index keeps it cheap.
  await knex.raw(
    `create index video_tasks_unsettled_idx on video_tasks (completed_at, id)
      where status = 'succeeded' and billing_state in ('none', 'charged')`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists video_tasks_unsettled_idx');
  await knex.schema.alterTable('usage_log', (t) => {
    t.dropColumn('video_requested_seconds');
    t.dropColumn('video_requested_resolution');
    t.dropColumn('video_delivered_seconds');
    t.dropColumn('video_delivered_resolution');
  });
}
