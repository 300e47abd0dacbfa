import type { Knex } from 'knex';

/** `|1280x720|5` after an operation ref: the requested shape that refs of an earlier release carried. */
const SHAPE_SUFFIX = String.raw`\|\d{1,5}x\d{1,5}\|\d{1,3}$`;
const IMAGE_FIELDS = `array['firstFrame', 'lastFrame', 'referenceImages']`;

/**
 * Stored rows in the form the code reads, once, so no reader keeps a second form:
 * - provider entries stored through the admin API lose `transport`: every call goes through the one sender
 *   (docs/adr/0002-node-http-transport.md), and the config schema refuses the field;
 * - a video task's operation ref loses the requested shape an earlier release wrote after it (`id|1280x720|5`):
 *   the Kling, MiniMax, Runway, DashScope and Veo adapters read the bare ref only;
 * - a pending webhook delivery's task snapshot gets its request's image descriptions (type and size, never bytes,
 *   which live in video_task_inputs since migration 022): snapshots are the task row as it is.
 */
export async function up(knex: Knex): Promise<void> {
  await knex('config_entries')
    .where({ kind: 'provider' })
    .whereRaw("body->>'transport' is not null")
    .update({ body: knex.raw("body - 'transport'") });
  await knex.raw(
    `update video_tasks
        set upstream = jsonb_set(upstream, '{operation}', to_jsonb(regexp_replace(upstream->>'operation', '${SHAPE_SUFFIX}', '')))
      where upstream->>'operation' ~ '${SHAPE_SUFFIX}'`,
  );
  await knex.raw(
    `update webhook_deliveries d
        set task = jsonb_set(d.task, '{request}',
              coalesce(d.task->'request', '{}'::jsonb) || jsonb_strip_nulls(jsonb_build_object(
                'firstFrame', t.request->'firstFrame',
                'lastFrame', t.request->'lastFrame',
                'referenceImages', t.request->'referenceImages')))
       from video_tasks t
      where t.id = d.task_id and jsonb_exists_any(t.request, ${IMAGE_FIELDS})
        and not jsonb_exists_any(coalesce(d.task->'request', '{}'::jsonb), ${IMAGE_FIELDS})`,
  );
}

/** Nothing: each rewrite drops what no reader uses, or adds what the task row already holds. */
export async function down(): Promise<void> {}
