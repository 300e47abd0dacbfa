import { describeOnTestDatabases } from '../../test/test-databases';
import { videoTask } from '../../test/video-task';
import { KnexTaskRepository } from '../knex-task-repository';
import { migrationSource } from './index';
import * as m022 from './022-task-inputs';
import * as m023 from './023-task-deployment-required';

const b64 = (bytes: number[]) => Buffer.from(bytes).toString('base64');
const image = (bytes: number[]) => ({ mediaType: 'image/png', width: 4, height: 3, data: b64(bytes) });

const withImages = (images: Record<string, unknown>) =>
  JSON.stringify({
    model: 'sim-video-2.0',
    prompt: 'a fox',
    durationSeconds: 5,
    resolution: '720p',
    aspectRatio: 'adaptive',
    generateAudio: true,
    fps: 24,
    ...images,
  });
/** A task row as the release before 022/023 wrote it: images inline in `request`, maybe no deployment. */
const oldRow = (id: string, over: Record<string, unknown> = {}) => ({
  id,
  account_id: 'acme',
  key_id: 'k',
  model: 'sim-video-2.0',
  format: 'openai-videos',
  status: 'queued',
  request: withImages({}),
  execution_expires_after: 3600,
  deployment: JSON.stringify({ provider: 'sim', upstreamModel: 'up' }),
  ...over,
});

describeOnTestDatabases((target) => {
  describe(`migrations 022-023 rewrite the rows of the previous release (${target.name})`, () => {
    it('moves inline image bytes out of the request and records or fails tasks without a deployment', async () => {
      const db = await target.open();
      try {
        // Back to the previous release's schema: 022 and 023 undone and forgotten by the migration table.
        await m023.down();
        await m022.down(db.knex);
        await db.knex('knex_migrations').whereIn('name', ['022-task-inputs', '023-task-deployment-required']).del();
        await db
          .knex('video_tasks')
          .insert([
            oldRow('first-last', { request: withImages({ firstFrame: image([1, 2]), lastFrame: image([3, 4]) }) }),
            oldRow('refs', { request: withImages({ referenceImages: [image([5]), image([6]), image([7])] }) }),
            oldRow('plain'),
            oldRow('submitted', { deployment: null, status: 'running', upstream: JSON.stringify({ provider: 'veo', operation: 'op-1' }) }),
            oldRow('never-submitted', { deployment: null, billing_state: 'charged', billed_credits: 10 }),
            oldRow('ended', { deployment: null, status: 'cancelled', completed_at: new Date() }),
          ]);

        await db.knex.migrate.latest({ migrationSource });

        const repo = new KnexTaskRepository(db.knex);
        const fl = await repo.findById('first-last');
        expect(fl!.request.firstFrame).toEqual({ mediaType: 'image/png', width: 4, height: 3 });
        const flFull = await repo.loadRequest('first-last');
        expect([...flFull!.firstFrame!.data]).toEqual([1, 2]);
        expect([...flFull!.lastFrame!.data]).toEqual([3, 4]);
        expect(flFull).toMatchObject({ prompt: 'a fox', durationSeconds: 5 });
        const refs = await repo.loadRequest('refs');
        expect(refs!.referenceImages!.map((i) => [...i.data])).toEqual([[5], [6], [7]]);
        expect((await repo.findById('refs'))!.request.referenceImages).toEqual([
          { mediaType: 'image/png', width: 4, height: 3 },
          { mediaType: 'image/png', width: 4, height: 3 },
          { mediaType: 'image/png', width: 4, height: 3 },
        ]);
        expect((await repo.loadRequest('plain'))!.firstFrame).toBeUndefined();
        // no image bytes stay in the task row
        const raw = await db.knex('video_tasks').whereIn('id', ['first-last', 'refs']).select('request');
        expect(JSON.stringify(raw)).not.toContain('"data"');

        expect((await repo.findById('submitted'))!.deployment).toEqual({ provider: 'veo', upstreamModel: 'sim-video-2.0' });
        expect(await repo.findById('never-submitted')).toMatchObject({ status: 'failed', error: { code: 'deployment_unknown' } });
        expect((await repo.findById('never-submitted'))!.completedAt).not.toBeNull();
        expect(await repo.findById('ended')).toMatchObject({ status: 'cancelled', deployment: null });
      } finally {
        await db.drop();
      }
    }, 60_000);

    it('022 down puts the bytes back inline', async () => {
      const db = await target.open();
      try {
        const repo = new KnexTaskRepository(db.knex);
        const png = { mediaType: 'image/png' as const, width: 1, height: 1 };
        await repo.create(
          videoTask('t1', {
            request: { firstFrame: { ...png, data: new Uint8Array([9]) }, referenceImages: [{ ...png, data: new Uint8Array([8]) }] },
          }),
        );
        await m022.down(db.knex);
        const [row] = await db.knex('video_tasks').where({ id: 't1' }).select('request');
        const r = typeof row.request === 'string' ? JSON.parse(row.request) : row.request;
        expect(r.firstFrame).toEqual({ ...png, data: b64([9]) });
        expect(r.referenceImages).toEqual([{ ...png, data: b64([8]) }]);
      } finally {
        await db.drop();
      }
    }, 60_000);
  });
});
