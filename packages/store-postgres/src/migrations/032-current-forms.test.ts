import { describeOnTestDatabases } from '../../test/test-databases';
import { up } from './032-current-forms';

const parse = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v) as Record<string, unknown> | null;

describeOnTestDatabases((target) => {
  describe(`migration 032: stored rows in their current form on ${target.name}`, () => {
    let db: Awaited<ReturnType<typeof target.open>>;
    beforeEach(async () => {
      db = await target.open();
    });
    afterEach(async () => db.drop());

    it('drops `transport` from stored provider entries and leaves every other field and row as it was', async () => {
      const entry = (kind: string, id: string, body: Record<string, unknown> | null) => ({
        kind,
        id,
        body: body === null ? null : JSON.stringify(body),
        source: 'admin',
      });
      await db
        .knex('config_entries')
        .insert([
          entry('provider', 'oa', { id: 'oa', type: 'openai', apiKey: 'env:OA', transport: 'axios' }),
          entry('provider', 'ol', { id: 'ol', type: 'openai-compatible', baseUrl: 'http://x/v1', transport: 'node' }),
          entry('provider', 'an', { id: 'an', type: 'anthropic', apiKey: 'env:AN' }),
          entry('provider', 'gone', null),
          entry('model', 'm', { id: 'm', kind: 'text', provider: 'oa', transport: 'kept: not a provider field' }),
        ]);

      await up(db.knex);

      const rows = await db.knex('config_entries').orderBy('seq').select('kind', 'id', 'body');
      expect(rows.map((r) => [r.kind, r.id, parse(r.body)])).toEqual([
        ['provider', 'oa', { id: 'oa', type: 'openai', apiKey: 'env:OA' }],
        ['provider', 'ol', { id: 'ol', type: 'openai-compatible', baseUrl: 'http://x/v1' }],
        ['provider', 'an', { id: 'an', type: 'anthropic', apiKey: 'env:AN' }],
        ['provider', 'gone', null],
        ['model', 'm', { id: 'm', kind: 'text', provider: 'oa', transport: 'kept: not a provider field' }],
      ]);
    });
  });
});
