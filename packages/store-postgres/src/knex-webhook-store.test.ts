import { WEBHOOK_EVENT_TYPES } from '@gateway/core';
import { eventually, moveTask } from '@gateway/testkit';
import { KnexTaskRepository } from './knex-task-repository';
import { KnexWebhookStore } from './knex-webhook-store';
import { taskChangeFeed } from './task-change-feed';
import { describeOnTestDatabases } from '../test/test-databases';
import { videoTask } from '../test/video-task';

/** With a first frame: its bytes must stay out of the outbox's task snapshots. */
const task = (id: string, accountId = 'a', callbackUrl: string | null = null) =>
  videoTask(id, {
    accountId,
    callbackUrl,
    request: { firstFrame: { data: new Uint8Array(1000), mediaType: 'image/png', width: 10, height: 10 } },
  });

const SEAL = 'a-test-sealing-secret-of-32-chars';
const future = () => new Date(Date.now() + 3600_000);

describeOnTestDatabases((target) => {
  describe(`webhook outbox and endpoints (${target.name})`, () => {
    it('writes one delivery per subscribed endpoint and one for callback_url with each status change, in its transaction', async () => {
      const db = await target.open();
      try {
        const store = new KnexWebhookStore(db.knex, { sealKey: SEAL });
        const tasks = new KnexTaskRepository(db.knex);
        await store.create({
          id: 'we_all',
          accountId: 'a',
          url: 'https://a.example/all',
          events: [...WEBHOOK_EVENT_TYPES],
          secret: 'whsec_x',
        });
        await store.create({
          id: 'we_done',
          accountId: 'a',
          url: 'https://a.example/done',
          events: ['video.completed'],
          secret: 'whsec_y',
        });
        await store.create({
          id: 'we_other',
          accountId: 'b',
          url: 'https://b.example/',
          events: [...WEBHOOK_EVENT_TYPES],
          secret: 'whsec_z',
        });
        await tasks.create(task('t1', 'a', 'https://a.example/cb'));
        await moveTask(tasks, 't1', 'queued', 'running');
        expect(await moveTask(tasks, 't1', 'queued', 'running')).toBeNull(); // a lost compare-and-set writes nothing
        await moveTask(tasks, 't1', 'running', 'succeeded');
        const rows = await db.knex('webhook_deliveries').orderBy('seq');
        expect(rows.map((r) => `${r.type} ${r.endpoint_id ?? r.callback_url}`)).toEqual([
          'video.queued we_all',
          'video.queued https://a.example/cb',
          'video.running we_all',
          'video.running https://a.example/cb',
          'video.completed we_all',
          'video.completed we_done',
          'video.completed https://a.example/cb',
        ]);
        // one event id per status change, shared by its targets; the snapshot describes the image, without its bytes
        expect(new Set(rows.map((r) => r.event_id)).size).toBe(3);
        const snapshot = typeof rows[0].task === 'string' ? JSON.parse(rows[0].task) : rows[0].task;
        expect(snapshot.request.firstFrame).toEqual({ mediaType: 'image/png', width: 10, height: 10 });
        expect(snapshot).not.toHaveProperty('lease_owner');
        // the secret is sealed at rest and never in the endpoint object
        const stored = await db.knex('webhook_endpoints').where({ id: 'we_all' }).first();
        expect(stored.secret).toMatch(/^enc:v1:/);
        expect(JSON.stringify(await store.get('we_all'))).not.toContain('whsec');
      } finally {
        await db.drop();
      }
    });

    it('claims in order per task and target, each delivery once, and retries keep the event id', async () => {
      const db = await target.open();
      try {
        const store = new KnexWebhookStore(db.knex, { sealKey: SEAL });
        const tasks = new KnexTaskRepository(db.knex);
        await tasks.create(task('t1', 'a', 'https://a.example/cb'));
        await moveTask(tasks, 't1', 'queued', 'running');
        const now = future();
        const [first, second] = await Promise.all([
          store.claimDue({ owner: 'w1', now, leaseMs: 30_000, limit: 10 }),
          store.claimDue({ owner: 'w2', now, leaseMs: 30_000, limit: 10 }),
        ]);
        // only the queued event: running waits for it, and one claimer got it
        const all = [...first, ...second];
        expect(all.map((c) => c.delivery.type)).toEqual(['video.queued']);
        const c = all[0];
        expect(c!.secret).toMatch(/^whsec_/);
        expect(c!.secret).toBe(await store.accountSecret('a'));
        const owner = first.length ? 'w1' : 'w2';
        const at = new Date();
        const attempt = { attempt: 1, at, statusCode: 500, error: null, responseExcerpt: 'no', durationMs: 3 };
        expect(await store.recordAttempt({ id: c!.delivery.id, owner: 'w3', attempt, outcome: { state: 'delivered' }, body: '{}' })).toBe(
          false,
        );
        expect(
          await store.recordAttempt({
            id: c!.delivery.id,
            owner,
            attempt,
            outcome: { state: 'pending', nextAttemptAt: at },
            body: '{"a":1}',
          }),
        ).toBe(true);
        const again = await store.claimDue({ owner: 'w1', now, leaseMs: 30_000, limit: 10 });
        expect(again.map((x) => [x.delivery.eventId, x.delivery.body, x.delivery.attempts])).toEqual([[c!.delivery.eventId, '{"a":1}', 1]]);
        await store.recordAttempt({
          id: c!.delivery.id,
          owner: 'w1',
          attempt: { ...attempt, attempt: 2, statusCode: 204 },
          outcome: { state: 'delivered' },
          body: '{"a":1}',
        });
        const next = await store.claimDue({ owner: 'w1', now, leaseMs: 30_000, limit: 10 });
        expect(next.map((x) => x.delivery.type)).toEqual(['video.running']);
      } finally {
        await db.drop();
      }
    });

    it('claims fairly: each account first, and never more than perAccount of one account leased at once', async () => {
      const db = await target.open();
      try {
        const store = new KnexWebhookStore(db.knex, { sealKey: SEAL });
        const tasks = new KnexTaskRepository(db.knex);
        for (let i = 0; i < 6; i++) await tasks.create(task(`busy${i}`, 'busy', 'https://busy.example/cb'));
        await tasks.create(task('calm0', 'calm', 'https://calm.example/cb'));
        const now = future();
        const claim = (owner: string, limit: number) => store.claimDue({ owner, now, leaseMs: 30_000, limit, perAccount: 2 });
        // the calm account's one delivery is claimed although the busy account's six are older
        const first = await claim('w1', 3);
        expect(first.map((c) => c.delivery.accountId).sort()).toEqual(['busy', 'busy', 'calm']);
        // the busy account holds its two leases: another instance gets nothing of it
        expect(await claim('w2', 10)).toEqual([]);
        const busy = first.find((c) => c.delivery.accountId === 'busy')!;
        const attempt = { attempt: 1, at: now, statusCode: 204, error: null, responseExcerpt: '', durationMs: 1 };
        await store.recordAttempt({ id: busy.delivery.id, owner: 'w1', attempt, outcome: { state: 'delivered' }, body: '{}' });
        // one settled: one more may go
        expect((await claim('w2', 10)).map((c) => c.delivery.accountId)).toEqual(['busy']);
      } finally {
        await db.drop();
      }
    });

    it('disables an endpoint that failed for the whole window', async () => {
      const db = await target.open();
      try {
        const store = new KnexWebhookStore(db.knex, { sealKey: SEAL });
        await store.create({ id: 'we_1', accountId: 'a', url: 'https://a.example/', events: ['video.queued'], secret: 'whsec_x' });
        const t0 = new Date('2026-01-01T00:00:00Z');
        expect(await store.endpointFailed('we_1', t0, 1000, 'r')).toEqual({ disabled: false });
        await store.endpointSucceeded('we_1');
        expect(await store.endpointFailed('we_1', new Date(t0.getTime() + 5000), 1000, 'r')).toEqual({ disabled: false });
        expect(await store.endpointFailed('we_1', new Date(t0.getTime() + 6000), 1000, 'failing')).toEqual({ disabled: true });
        expect((await store.get('we_1'))?.disabledReason).toBe('failing');
        // a disabled endpoint gets no new rows
        await new KnexTaskRepository(db.knex).create(task('t1'));
        expect(await db.knex('webhook_deliveries')).toHaveLength(0);
      } finally {
        await db.drop();
      }
    });

    it('refuses to store a secret without a sealing key, writing nothing', async () => {
      const db = await target.open();
      try {
        const store = new KnexWebhookStore(db.knex);
        await expect(
          store.create({ id: 'we_1', accountId: 'a', url: 'https://a/', events: ['video.queued'], secret: 'whsec_x' }),
        ).rejects.toMatchObject({
          code: 'webhook_secret_unavailable',
        });
        await expect(store.accountSecret('a')).rejects.toMatchObject({ code: 'webhook_secret_unavailable' });
        expect(await db.knex('webhook_endpoints')).toHaveLength(0);
      } finally {
        await db.drop();
      }
    });

    it('notifies listeners of a new task and of status and progress changes after commit', async () => {
      const db = await target.open();
      const feed = taskChangeFeed(db);
      try {
        await feed.start();
        const tasks = new KnexTaskRepository(db.knex);
        let hints = 0;
        const off = feed.subscribe('t1', () => hints++);
        await tasks.create(task('t1'));
        await eventually(() => hints === 1);
        await moveTask(tasks, 't1', 'queued', 'running');
        await eventually(() => hints === 2);
        const [claim] = await tasks.claimDue({ owner: 'w', now: future(), leaseMs: 1000, limit: 1 });
        await tasks.release(claim!.task.id, 'w', { nextPollAt: new Date(), progress: 50 });
        await eventually(() => hints === 3);
        off();
        await moveTask(tasks, 't1', 'running', 'failed');
        await eventually(async () => (await tasks.findById('t1'))?.status === 'failed');
        expect(hints).toBe(3);
      } finally {
        await feed.close();
        await db.drop();
      }
    });
  });
});
