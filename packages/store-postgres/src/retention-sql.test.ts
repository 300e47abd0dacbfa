import { enforceRetention } from './retention-sql';
import { describeOnTestDatabases } from '../test/test-databases';

const DAY = 86_400_000;

describeOnTestDatabases((target) => {
  describe(`retention on ${target.name}`, () => {
    let db: Awaited<ReturnType<typeof target.open>>;
    const now = new Date('2026-06-30T12:00:00Z');
    const ago = (days: number) => new Date(now.getTime() - days * DAY);
    beforeAll(async () => {
      db = await target.open();
      const usage = (id: string, at: Date) => ({ request_id: id, format: 'openai-chat', status: 'ok', http_status: 200, created_at: at });
      await db.knex('usage_log').insert([usage('old-1', ago(100)), usage('old-2', ago(91)), usage('recent', ago(10))]);
      const delivery = (id: string, state: string, at: Date) => ({
        id,
        event_id: `evt_${id}`,
        type: 'video.completed',
        task_id: 't',
        account_id: 'acme',
        task: JSON.stringify({ id: 't' }),
        event_at: at,
        next_attempt_at: at,
        state,
      });
      await db
        .knex('webhook_deliveries')
        .insert([
          delivery('d-old', 'delivered', ago(40)),
          delivery('d-failed', 'failed', ago(45)),
          delivery('d-pending', 'pending', ago(60)),
          delivery('d-new', 'delivered', ago(5)),
        ]);
      await db.knex('webhook_attempts').insert({ delivery_id: 'd-old', attempt: 1, at: ago(40), status_code: 200, duration_ms: 5 });
    });
    afterAll(async () => db.drop());

    const ids = async (table: string, column: string) => (await db.knex(table).select(column).orderBy(column)).map((r) => r[column]);

    it('keeps everything at 0 days', async () => {
      expect(await enforceRetention(db.knex, { usageDays: 0, webhookDeliveryDays: 0 }, now)).toEqual({
        usageRows: 0,
        webhookDeliveries: 0,
      });
      expect(await ids('usage_log', 'request_id')).toHaveLength(3);
    });

    it('deletes usage rows and finished deliveries (with their attempts) past their days, never a pending delivery', async () => {
      expect(await enforceRetention(db.knex, { usageDays: 90, webhookDeliveryDays: 30 }, now)).toEqual({
        usageRows: 2,
        webhookDeliveries: 2,
      });
      expect(await ids('usage_log', 'request_id')).toEqual(['recent']);
      expect(await ids('webhook_deliveries', 'id')).toEqual(['d-new', 'd-pending']);
      expect(await db.knex('webhook_attempts').select()).toEqual([]);
      // again: nothing left to delete
      expect(await enforceRetention(db.knex, { usageDays: 90, webhookDeliveryDays: 30 }, now)).toEqual({
        usageRows: 0,
        webhookDeliveries: 0,
      });
    });
  });
});
