import type { Knex } from 'knex';

/**
 * Every task is submitted to the deployment stored on it (migration 007); tasks admitted before then had none and
 * were resolved at submit. Rewritten here once, so no read path resolves them: a task that reached its upstream
 * records that provider (the upstream model was not recorded then; the model id stands in, and nothing reads it
 * once a task was submitted); an active one that never did is failed (the refund sweep returns its credits).
 */
const UNKNOWN = {
  code: 'deployment_unknown',
  message: 'This task was admitted by an earlier gateway release that did not record its deployment; create a new task.',
};

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`update video_tasks set deployment = jsonb_build_object('provider', upstream->>'provider', 'upstreamModel', model)
    where deployment is null and upstream is not null`);
  await knex('video_tasks')
    .whereNull('deployment')
    .whereIn('status', ['queued', 'running'])
    .update({
      status: 'failed',
      error: JSON.stringify(UNKNOWN),
      completed_at: knex.fn.now(),
      updated_at: knex.fn.now(),
      lease_owner: null,
      lease_until: null,
    });
}

/** The rewrite stands: the rows it changed are valid under both releases. */
export async function down(): Promise<void> {}
