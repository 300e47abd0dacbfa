import { openDatabase } from '../db';
import { down, up } from './016-usage-delivered';

describe('migration 016: usage rows with requested and delivered video', () => {
  it('marks tasks that had already succeeded as settled (they keep their charge); others are left to their rules', async () => {
    const db = await openDatabase({});
    try {
      await down(db.knex); // back to before 016, with the tables of the earlier migrations
      const task = (id: string, status: string) => ({
        id,
        account_id: 'acme',
        key_id: 'k',
        model: 'm',
        format: 'f',
        status,
        request: JSON.stringify({ durationSeconds: 5, resolution: '720p' }),
        billing_state: 'charged',
        billed_credits: 10,
        execution_expires_after: 3600,
      });
      await db.knex('video_tasks').insert([task('old-ok', 'succeeded'), task('old-failed', 'failed'), task('running', 'running')]);

      await up(db.knex);

      const states = Object.fromEntries((await db.knex('video_tasks').select('id', 'billing_state')).map((r) => [r.id, r.billing_state]));
      expect(states).toEqual({ 'old-ok': 'settled', 'old-failed': 'charged', running: 'charged' });
      const columns = await db.knex('usage_log').columnInfo();
      expect(Object.keys(columns)).toEqual(
        expect.arrayContaining([
          'video_requested_seconds',
          'video_requested_resolution',
          'video_delivered_seconds',
          'video_delivered_resolution',
        ]),
      );
    } finally {
      await db.close();
    }
  }, 60_000);
});
