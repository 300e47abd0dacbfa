import { describeOnTestDatabases } from '../../test/test-databases';
import { down, up } from './031-audit-integrity';

const parse = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v) as Record<string, any> | null;

describeOnTestDatabases((target) => {
  describe(`migration 031: audit integrity on ${target.name}`, () => {
    let db: Awaited<ReturnType<typeof target.open>>;
    beforeEach(async () => {
      db = await target.open();
    });
    afterEach(async () => db.drop());

    const record = (id: string, before: unknown, after: unknown) => ({
      id,
      at: new Date(),
      actor_type: 'admin_key',
      actor_id: 'admin',
      action: 'provider.update',
      target_type: 'provider',
      target_id: 'azure',
      before: before === null ? null : JSON.stringify(before),
      after: JSON.stringify(after),
    });

    it('refuses TRUNCATE of the audit log, as UPDATE and DELETE already are', async () => {
      await db.knex('audit_log').insert(record('aud_1', null, { id: 'azure' }));
      await expect(db.knex.raw('truncate audit_log')).rejects.toThrow(/append-only/);
      await expect(db.knex('audit_log').truncate()).rejects.toThrow(/append-only/);
      expect(Number((await db.knex('audit_log').count<{ n: string }[]>('* as n'))[0]!.n)).toBe(1);
    });

    it('masks provider header values recorded before they were masked, and nothing else', async () => {
      await down(db.knex); // back to before 031
      const options = { headers: { 'api-key': 'azure-secret-0000000001', Authorization: 'Bearer sk-clear-0000000002' }, chatPath: '/x' };
      await db
        .knex('audit_log')
        .insert([
          record('aud_old', { id: 'azure', options }, { id: 'azure', apiKey: '(set)', options }),
          record('aud_plain', null, { id: 'azure', options: { chatPath: '/y' } }),
        ]);
      await up(db.knex);

      const rows = await db.knex('audit_log').orderBy('seq').select('id', 'before', 'after');
      const masked = { headers: { 'api-key': '(masked)', Authorization: '(masked)' }, chatPath: '/x' };
      expect(rows.map((r) => [r.id, parse(r.before), parse(r.after)])).toEqual([
        ['aud_old', { id: 'azure', options: masked }, { id: 'azure', apiKey: '(set)', options: masked }],
        ['aud_plain', null, { id: 'azure', options: { chatPath: '/y' } }],
      ]);
      expect(JSON.stringify(rows)).not.toMatch(/azure-secret|sk-clear/);
      // the row trigger is back on
      await expect(db.knex('audit_log').where({ id: 'aud_old' }).update({ action: 'x.y' })).rejects.toThrow(/append-only/);
      await expect(db.knex.raw('truncate audit_log')).rejects.toThrow(/append-only/);
    });
  });
});
