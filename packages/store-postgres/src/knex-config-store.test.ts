import { FILE_KEY_MARKER, KnexConfigStore, type ConfigEntry } from './knex-config-store';
import { describeOnTestDatabases } from '../test/test-databases';

type Entry = Omit<ConfigEntry, 'source'>;

const file = (modelName = 'Chat'): Entry[] => [
  { kind: 'provider', id: 'up', body: { type: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'sk-literal-file-key' } },
  { kind: 'model', id: 'chat', body: { kind: 'text', provider: 'up', displayName: modelName } },
  { kind: 'model', id: 'other', body: { kind: 'text', provider: 'up' } },
  { kind: 'group', id: 'default', body: { models: ['chat', 'other'] } },
];
const settings = { limits: { requestsPerMinutePerKey: 5 } };

describeOnTestDatabases((target) => {
  describe(`KnexConfigStore.importFile on ${target.name}`, () => {
    let db: Awaited<ReturnType<typeof target.open>>;
    beforeEach(async () => {
      db = await target.open();
    });
    afterEach(async () => db.drop());

    const ids = async () =>
      (await db.knex('config_entries').orderBy('seq').select('kind', 'id', 'source')).map((r) => `${r.id}:${r.source}`);

    it('imports a new file once; the same content in another key order is not imported again', async () => {
      const store = new KnexConfigStore(db.knex);
      const first = await store.importFile({ entries: file(), settings });
      expect(first).toMatchObject({ imported: true, previousHash: null, added: 4, changed: 0, removed: 0, adminEditsReplaced: 0 });
      expect(first.hash).toMatch(/^[0-9a-f]{64}$/);
      const after = await store.state();
      expect(after).toEqual({ version: 1, settings, fileHash: first.hash });

      const reordered = file().map((e) => ({ ...e, body: e.body && Object.fromEntries(Object.entries(e.body).reverse()) }));
      const again = await new KnexConfigStore(db.knex).importFile({ entries: reordered, settings });
      expect(again).toMatchObject({ imported: false, hash: first.hash });
      expect((await store.state()).version).toBe(1);
    });

    it('keeps admin changes while the file is unchanged; a changed file replaces the catalogue', async () => {
      const store = new KnexConfigStore(db.knex);
      await store.importFile({ entries: file(), settings });
      await store.put('model', 'added', { kind: 'text', provider: 'up' });
      await store.put('model', 'other', null);
      expect(await store.importFile({ entries: file(), settings })).toMatchObject({ imported: false });
      expect(await ids()).toEqual(['up:file', 'chat:file', 'other:admin', 'default:file', 'added:admin']);

      const changed = await store.importFile({ entries: file('Chat, renamed'), settings: { limits: { requestsPerMinutePerKey: 9 } } });
      // served before: up, chat, default, added; after: up, chat (renamed), other, default
      expect(changed).toMatchObject({ imported: true, added: 1, changed: 1, removed: 1, adminEditsReplaced: 2 });
      expect(await ids()).toEqual(['up:file', 'chat:file', 'other:file', 'default:file']);
      expect((await store.state()).settings).toEqual({ limits: { requestsPerMinutePerKey: 9 } });
    });

    it('audits each import (settings included) in its own transaction, authored by the file; none when nothing changed', async () => {
      const store = new KnexConfigStore(db.knex);
      await store.importFile({ entries: file(), settings, source: '/etc/gateway.json' });
      await store.importFile({ entries: file(), settings, source: '/etc/gateway.json' });
      await store.importFile({ entries: file(), settings: { limits: { requestsPerMinutePerKey: 9 } }, source: '/etc/gateway.json' });
      const rows = await db.knex('audit_log').orderBy('seq').select('actor_type', 'actor_id', 'action', 'before', 'after');
      const parse = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v);
      expect(rows.map((r) => [r.actor_type, r.actor_id, r.action])).toEqual([
        ['config_file', '/etc/gateway.json', 'config.import'],
        ['config_file', '/etc/gateway.json', 'config.import'],
      ]);
      expect(parse(rows[1].before)).toMatchObject({ settings: { limits: { requestsPerMinutePerKey: 5 } } });
      expect(parse(rows[1].after)).toMatchObject({
        settings: { limits: { requestsPerMinutePerKey: 9 } },
        added: 0,
        changed: 0,
        removed: 0,
      });
      expect(JSON.stringify(rows)).not.toContain('sk-literal-file-key');
    });

    it('audits a change of the file guardrails (guardrails.import, before and after), even when the catalogue is unchanged', async () => {
      const store = new KnexConfigStore(db.knex);
      const source = '/etc/gateway.json';
      const mask = { definitions: [{ id: 'pii', type: 'pii', mode: 'mask' }], groups: { default: ['pii'] } };
      const block = { definitions: [{ id: 'pii', type: 'pii', mode: 'block' }], groups: { default: ['pii'] } };
      await store.importFile({ entries: file(), settings, source, guardrails: mask });
      await store.importFile({ entries: file(), settings, source, guardrails: mask }); // nothing changed: no record
      await store.importFile({ entries: file(), settings, source, guardrails: block }); // the guardrails alone changed
      await store.importFile({ entries: file('Renamed'), settings, source, guardrails: block }); // the catalogue alone changed
      const rows = await db.knex('audit_log').orderBy('seq').select('actor_type', 'actor_id', 'action', 'target_id', 'before', 'after');
      const parse = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v);
      expect(rows.map((r) => [r.actor_type, r.actor_id, r.action, r.target_id])).toEqual([
        ['config_file', source, 'guardrails.import', 'guardrails'],
        ['config_file', source, 'config.import', 'catalogue'],
        ['config_file', source, 'guardrails.import', 'guardrails'],
        ['config_file', source, 'config.import', 'catalogue'],
      ]);
      expect([parse(rows[0].before), parse(rows[0].after)]).toEqual([null, mask]);
      expect([parse(rows[2].before), parse(rows[2].after)]).toEqual([mask, block]);
      expect(parse(rows[3].before).settings).toEqual(settings); // the import's own record keeps to the catalogue settings
      expect((await store.state()).version).toBe(2); // a change of guardrails alone does not replace the catalogue
    });

    it('stores a literal file key as the marker; every instance reading the file keeps it in memory, imported or not', async () => {
      await new KnexConfigStore(db.knex).importFile({ entries: file(), settings });
      expect(JSON.stringify(await db.knex('config_entries').select())).not.toContain('sk-literal-file-key');
      expect(JSON.stringify(await db.knex('config_version').select())).not.toContain('sk-literal-file-key');
      const provider = (await db.knex('config_entries').where({ kind: 'provider' }).first()).body;
      expect(typeof provider === 'string' ? JSON.parse(provider) : provider).toMatchObject({ apiKey: FILE_KEY_MARKER });

      const second = new KnexConfigStore(db.knex);
      expect((await second.importFile({ entries: file(), settings })).imported).toBe(false);
      expect((await second.entries()).find((e) => e.id === 'up')?.body).toMatchObject({ apiKey: 'sk-literal-file-key' });
    });

    it('instances importing one file at once agree: exactly one imports', async () => {
      const outcomes = await Promise.all([1, 2, 3].map(() => new KnexConfigStore(db.knex).importFile({ entries: file(), settings })));
      expect(outcomes.filter((o) => o.imported)).toHaveLength(1);
      expect(new Set(outcomes.map((o) => o.hash)).size).toBe(1);
      expect((await new KnexConfigStore(db.knex).state()).version).toBe(1);
      expect(await ids()).toEqual(['up:file', 'chat:file', 'other:file', 'default:file']);
    });

    it('the first import after the upgrade keeps the admin rows of a catalogue stored before hashes were kept', async () => {
      await db.knex('config_entries').insert([
        { kind: 'model', id: 'chat', body: JSON.stringify({ kind: 'text', provider: 'up' }), source: 'file' },
        { kind: 'model', id: 'legacy-admin', body: JSON.stringify({ kind: 'text', provider: 'up' }), source: 'admin' },
        { kind: 'model', id: 'other', body: null, source: 'admin' },
      ]);
      const r = await new KnexConfigStore(db.knex).importFile({ entries: file(), settings });
      expect(r).toMatchObject({ imported: true, adminEditsReplaced: 0 });
      expect((await ids()).sort()).toEqual(['chat:file', 'default:file', 'legacy-admin:admin', 'other:admin', 'up:file']);
    });
  });
});
