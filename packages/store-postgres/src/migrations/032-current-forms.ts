import type { Knex } from 'knex';
import { credentialHeaders, mapCredentialHeaders } from '@gateway/core';
import { FILE_KEY_MARKER } from '../knex-config-store';
import { isSealed, seal } from '../secret-box';
import type { MigrationContext } from './index';

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
 *   which live in video_task_inputs since migration 022): snapshots are the task row as it is;
 * - a provider key or header value an earlier release stored unencrypted takes its current form: the config file's
 *   marker in a file row (the file holds the value, read again at every start), sealed with GATEWAY_SECRET in an admin
 *   row; without the secret the migration stops at such an admin row, naming the provider, and nothing changes.
 */
export async function up(knex: Knex, ctx: MigrationContext = {}): Promise<void> {
  await sealClearCredentials(knex, ctx.sealSecret);
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

/** A credential at rest that is neither an `env:NAME` reference (keys only), the config file's marker, nor sealed. */
const isClear = (value: string, field: 'apiKey' | 'header') =>
  value !== FILE_KEY_MARKER && !isSealed(value) && !(field === 'apiKey' && value.startsWith('env:'));

async function sealClearCredentials(knex: Knex, secret: string | undefined): Promise<void> {
  const rows: Array<{ seq: number; id: string; body: unknown; source: string }> = await knex('config_entries')
    .where({ kind: 'provider' })
    .whereNotNull('body')
    .select('seq', 'id', 'body', 'source');
  const updates: Array<{ seq: number; body: Record<string, unknown> }> = [];
  for (const r of rows) {
    const body = (typeof r.body === 'string' ? JSON.parse(r.body) : r.body) as Record<string, unknown>;
    const key = typeof body.apiKey === 'string' && isClear(body.apiKey, 'apiKey') ? body.apiKey : undefined;
    const headers = Object.entries(credentialHeaders(body)).filter(([, value]) => isClear(value, 'header'));
    if (key === undefined && headers.length === 0) continue;
    const fromFile = r.source === 'file';
    // checked for every row before any is written, so a refusal leaves the table as it was
    if (!secret && !fromFile) {
      const what = [...(key === undefined ? [] : ['apiKey']), ...headers.map(([name]) => `header ${name}`)].join(', ');
      throw new Error(
        `provider "${r.id}" has its ${what} stored unencrypted (written before credentials were sealed): set GATEWAY_SECRET (at least 16 characters) and start again, and migration 032 seals it (docs/upgrading.md)`,
      );
    }
    const atRest = (value: string) => (fromFile ? FILE_KEY_MARKER : seal(value, secret!));
    const withKey = key === undefined ? body : { ...body, apiKey: atRest(key) };
    updates.push({ seq: r.seq, body: mapCredentialHeaders(withKey, (value) => (isClear(value, 'header') ? atRest(value) : value)) });
  }
  for (const u of updates)
    await knex('config_entries')
      .where({ seq: u.seq })
      .update({ body: JSON.stringify(u.body) });
}

/** Nothing: each rewrite drops what no reader uses, adds what the task row already holds, or seals what was clear. */
export async function down(): Promise<void> {}
