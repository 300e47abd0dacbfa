import { ModelCatalogue, VideoWorker, type VideoImage } from '@gateway/core';
import { FakeVideoModel, InMemoryContentStore, ManualClock, runWorkerOnce } from '@gateway/testkit';
import { KnexTaskRepository } from './knex-task-repository';
import { describeOnTestDatabases } from '../test/test-databases';
import { videoTask } from '../test/video-task';

const IMAGE_BYTES = 20_000;
/** 30 reference images, each filled with its own byte so any copy of one is recognisable in a query's answer. */
const images: VideoImage[] = Array.from({ length: 30 }, (_, n) => ({
  mediaType: 'image/png',
  width: 512,
  height: 512,
  data: new Uint8Array(IMAGE_BYTES).fill(n + 1),
}));
const marker = Buffer.from(new Uint8Array(300).fill(7)).toString('base64').slice(0, 200);

describeOnTestDatabases((target) => {
  describe(`a worker's claim and poll move no input image bytes (${target.name})`, () => {
    it('only the submission reads the 30 reference images; the polls after it read none of their bytes', async () => {
      const db = await target.open();
      try {
        const clock = new ManualClock();
        const upstream = new FakeVideoModel();
        const tasks = new KnexTaskRepository(db.knex, { now: () => new Date(clock.now()) });
        const catalogue = new ModelCatalogue(
          [
            {
              id: 'v',
              kind: 'video',
              family: '2.0',
              tier: 'standard',
              deployments: [{ provider: 'sim', upstreamModel: 'up', priority: 0, weight: 1 }],
            },
          ],
          [{ name: 'default', models: ['*'] }],
        );
        const worker = new VideoWorker(
          {
            tasks,
            content: new InMemoryContentStore(clock.now),
            catalogue,
            providers: { video: () => upstream },
            now: clock.now,
            random: () => 0,
          },
          { owner: 'w', pollMinMs: 1000, pollMaxMs: 1000, expireEveryMs: 3_600_000, purgeEveryMs: 3_600_000 },
        );
        await tasks.create(
          videoTask('task30', {
            accountId: 'acme',
            model: 'v',
            format: 'test',
            deployment: { provider: 'sim', upstreamModel: 'up' },
            createdAt: new Date(clock.now()),
            request: { model: 'v', prompt: 'a fox', generateAudio: false, referenceImages: images },
          }),
        );

        // Every answer the database gives, measured as the rows the store received (JSON size) and searched for image bytes.
        let answers: Array<{ sql: string; bytes: number; image: boolean }> = [];
        db.knex.on('query-response', (response: unknown, q: { sql: string }) => {
          // an array of rows, one row (first()), a raw result with rows, or a count
          const rows = response && typeof response === 'object' && 'rows' in response ? response.rows : response;
          const text = JSON.stringify(rows ?? null);
          answers.push({ sql: q.sql, bytes: text.length, image: text.includes(marker) || text.includes('"data"') });
        });
        const round = async () => {
          answers = [];
          await runWorkerOnce(worker);
          clock.advance(5000);
          return answers;
        };

        const submit = await round();
        expect(upstream.startRequests[0]!.referenceImages!.map((i) => i.data.length)).toEqual(images.map(() => IMAGE_BYTES));
        // the measure sees bytes where there are some: the submission read all 30 images
        expect(submit.reduce((n, a) => n + a.bytes, 0)).toBeGreaterThan(30 * IMAGE_BYTES);
        expect(submit.filter((a) => a.image)).toHaveLength(1);

        // three polls: still queued; queued → running with progress; succeeded and delivered
        for (let poll = 1; poll <= 3; poll++) {
          const polled = await round();
          expect(upstream.statusCalls).toHaveLength(poll);
          expect(polled.filter((a) => a.image || /video_task_inputs/.test(a.sql))).toEqual([]);
          // a claim, a status change and a release answer with a task row of a few kB, not its images
          expect(polled.reduce((n, a) => n + a.bytes, 0)).toBeLessThan(IMAGE_BYTES);
        }
        expect((await tasks.findById('task30'))!.status).toBe('succeeded');
      } finally {
        await db.drop();
      }
    }, 120_000);
  });
});
