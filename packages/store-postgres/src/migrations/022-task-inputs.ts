import type { Knex } from 'knex';

/**
 * A task's input images' bytes live apart from its row, so claiming, polling and reading a task never load them;
 * only a submission reads them (KnexTaskRepository.loadRequest). Rows of earlier releases, which carried the bytes
 * inline in `request` (`{mediaType, width, height, data}` per image), are rewritten here once.
 */
const ELEMENTS = `jsonb_array_elements(request->'referenceImages') with ordinality as x(e, n)`;
const HAS_IMAGES = `request->'firstFrame' is not null or request->'lastFrame' is not null or request->'referenceImages' is not null`;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('video_task_inputs', (t) => {
    t.text('task_id').primary().references('id').inTable('video_tasks').onDelete('CASCADE');
    // base64 per image, by the request field it belongs to: {firstFrame?, lastFrame?, referenceImages?: []}
    t.jsonb('images').notNullable();
  });
  await knex.raw(`insert into video_task_inputs (task_id, images)
    select id, jsonb_strip_nulls(jsonb_build_object(
             'firstFrame', request->'firstFrame'->'data',
             'lastFrame', request->'lastFrame'->'data',
             'referenceImages', (select jsonb_agg(e->'data' order by n) from ${ELEMENTS})))
      from video_tasks where ${HAS_IMAGES}`);
  await knex.raw(`update video_tasks
      set request = ((request #- '{firstFrame,data}') #- '{lastFrame,data}')
                    || case when jsonb_typeof(request->'referenceImages') = 'array'
                            then jsonb_build_object('referenceImages', (select coalesce(jsonb_agg(e - 'data' order by n), '[]'::jsonb) from ${ELEMENTS}))
                            else '{}'::jsonb end
    where ${HAS_IMAGES}`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`update video_tasks t
      set request = t.request
          || case when i.images->'firstFrame' is not null
                  then jsonb_build_object('firstFrame', (t.request->'firstFrame') || jsonb_build_object('data', i.images->'firstFrame')) else '{}'::jsonb end
          || case when i.images->'lastFrame' is not null
                  then jsonb_build_object('lastFrame', (t.request->'lastFrame') || jsonb_build_object('data', i.images->'lastFrame')) else '{}'::jsonb end
          || case when i.images->'referenceImages' is not null
                  then jsonb_build_object('referenceImages', (select jsonb_agg(e || jsonb_build_object('data', i.images->'referenceImages'->(n::int - 1)) order by n)
                                                                from jsonb_array_elements(t.request->'referenceImages') with ordinality as x(e, n)))
                  else '{}'::jsonb end
     from video_task_inputs i where i.task_id = t.id`);
  await knex.schema.dropTable('video_task_inputs');
}
