import { VIDEO_DEFAULTS } from '@gateway/core';
import { eventually } from '@gateway/testkit';
import { startTestGateway, testConfigFile } from '../support/test-gateway';

/**
 * A crash between steps of older code could leave a task without its charge or its usage row. The recovery
 * audit at start-up finds such tasks and repairs them: charged exactly once, one usage row each.
 */
const priced = () => {
  const base = testConfigFile();
  return testConfigFile({
    models: base.models.map((m) =>
      m.id === 'sim-video-2.0' ? { ...m, pricing: { perVideoSecond: { '480p': 2, '720p': 4, '1080p': 8, '4k': 16 } } } : m,
    ),
  });
};

describe('recovery audit at start-up', () => {
  it('charges a task that was never charged and writes its missing usage row, once', async () => {
    const gw = await startTestGateway({ listen: false, config: priced() });
    try {
      // What a crash between the insert and the rest left behind: the task row alone.
      await gw.stores.tasks.create({
        id: 'taskcrashed01',
        accountId: 'alpha',
        keyId: 'key-alpha',
        model: 'sim-video-2.0',
        format: 'test',
        request: {
          model: 'sim-video-2.0',
          prompt: 'a fox',
          durationSeconds: 5,
          resolution: '720p',
          aspectRatio: '16:9',
          generateAudio: false,
          fps: 24,
        },
        priority: 0,
        serviceTier: 'default',
        executionExpiresAfter: VIDEO_DEFAULTS.executionExpiresAfter,
        idempotencyKey: null,
        deployment: { provider: 'sim', upstreamModel: 'm' },
      });
      await gw.startBackground();
      await eventually(async () => {
        const task = await gw.db.knex('video_tasks').where({ id: 'taskcrashed01' }).first();
        expect([task.billing_state, Number(task.billed_credits)]).toEqual(['charged', 20]);
        const rows = await gw.db.knex('usage_log').where({ task_id: 'taskcrashed01', status: 'queued' });
        expect(rows.map((r) => Number(r.credits))).toEqual([20]);
      }, 15000);
      const quota = await gw.db.knex('account_quotas').where({ account_id: 'alpha' }).first();
      expect(Number(quota.credits_used)).toBe(20);
      const ledger = await gw.db.knex('credit_ledger').where({ task_id: 'taskcrashed01' });
      expect(ledger.map((l) => Number(l.amount))).toEqual([20]);
    } finally {
      await gw.stop();
    }
  });
});
