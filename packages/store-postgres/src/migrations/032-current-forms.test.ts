import { describeOnTestDatabases } from '../../test/test-databases';
import { FILE_KEY_MARKER, KnexConfigStore } from '../knex-config-store';
import { isSealed, seal, unseal } from '../secret-box';
import { up } from './032-current-forms';

const parse = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v) as Record<string, any> | null;

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

    const taskRow = (id: string, request: Record<string, unknown>, upstream: Record<string, unknown> | null) => ({
      id,
      account_id: 'acme',
      key_id: 'k',
      model: 'm',
      format: 'openai-videos',
      status: 'running',
      request: JSON.stringify({ model: 'm', prompt: 'p', ...request }),
      execution_expires_after: 3600,
      deployment: JSON.stringify({ provider: 'kling', upstreamModel: 'm' }),
      upstream: upstream === null ? null : JSON.stringify(upstream),
    });

    it("strips the requested shape an earlier release wrote after a task's operation ref, and nothing else", async () => {
      await db
        .knex('video_tasks')
        .insert([
          taskRow('t_kling', {}, { provider: 'kling', operation: 'text2video/abc-123|1280x720|5' }),
          taskRow('t_veo', {}, { provider: 'veo', operation: 'models/veo/operations/op1|1920x1080|8' }),
          taskRow('t_bare', {}, { provider: 'runway', operation: 'task_9' }),
          taskRow('t_other', {}, { provider: 'outside', operation: 'a|b|c' }),
          taskRow('t_queued', {}, null),
        ]);

      await up(db.knex);

      const rows = await db.knex('video_tasks').orderBy('id').select('id', 'upstream');
      expect(Object.fromEntries(rows.map((r) => [r.id, parse(r.upstream)?.operation ?? null]))).toEqual({
        t_bare: 'task_9',
        t_kling: 'text2video/abc-123',
        t_other: 'a|b|c',
        t_queued: null,
        t_veo: 'models/veo/operations/op1',
      });
    });

    it("gives pending webhook snapshots their request's image descriptions, as snapshots now carry them", async () => {
      const frame = { mediaType: 'image/png', width: 10, height: 20 };
      await db
        .knex('video_tasks')
        .insert([taskRow('t_img', { firstFrame: frame, referenceImages: [frame, frame] }, null), taskRow('t_text', {}, null)]);
      const delivery = (id: string, taskId: string, request: Record<string, unknown>) => ({
        id,
        event_id: `evt_${id}`,
        type: 'video.running',
        task_id: taskId,
        account_id: 'acme',
        callback_url: 'https://example.com/cb',
        task: JSON.stringify({ id: taskId, status: 'running', request: { model: 'm', prompt: 'p', ...request } }),
        event_at: new Date(),
        next_attempt_at: new Date(),
      });
      await db
        .knex('webhook_deliveries')
        .insert([
          delivery('whd_img', 't_img', {}),
          delivery('whd_text', 't_text', {}),
          delivery('whd_current', 't_img', { firstFrame: { ...frame, width: 99 } }),
        ]);

      await up(db.knex);

      const rows = await db.knex('webhook_deliveries').orderBy('id').select('id', 'task');
      expect(Object.fromEntries(rows.map((r) => [r.id, parse(r.task)!.request]))).toEqual({
        whd_current: { model: 'm', prompt: 'p', firstFrame: { ...frame, width: 99 } },
        whd_img: { model: 'm', prompt: 'p', firstFrame: frame, referenceImages: [frame, frame] },
        whd_text: { model: 'm', prompt: 'p' },
      });
    });

    const SECRET = 'a-gateway-secret-of-32-characters';
    const provider = (id: string, body: Record<string, unknown>) => ({
      kind: 'provider',
      id,
      body: JSON.stringify({ id, type: 'openai-compatible', baseUrl: 'http://x/v1', ...body }),
      source: 'admin',
    });

    it('seals provider keys and header values an earlier release stored unencrypted, and leaves references, markers and sealed values', async () => {
      const sealedBefore = seal('sk-sealed-0000000001', SECRET);
      await db.knex('config_entries').insert([
        provider('clear', { apiKey: 'sk-clear-0000000001', options: { headers: { 'api-key': 'hdr-clear-0000000001' } } }),
        provider('env', { apiKey: 'env:OA_KEY' }),
        provider('file', { apiKey: FILE_KEY_MARKER, options: { headers: { 'x-key': FILE_KEY_MARKER } } }),
        provider('sealed', { apiKey: sealedBefore }),
        {
          ...provider('old-file', { apiKey: 'sk-file-0000000001', options: { headers: { 'x-key': 'hdr-file-0000000001' } } }),
          source: 'file',
        },
      ]);

      await up(db.knex, { sealSecret: SECRET });

      const rows = await db.knex('config_entries').orderBy('seq').select('id', 'body');
      const bodies = Object.fromEntries(rows.map((r) => [r.id, parse(r.body)!]));
      expect(isSealed(bodies.clear.apiKey)).toBe(true);
      expect(unseal(bodies.clear.apiKey, SECRET)).toBe('sk-clear-0000000001');
      expect(unseal(bodies.clear.options.headers['api-key'], SECRET)).toBe('hdr-clear-0000000001');
      // a file row's literal is the file's to hold: the marker, as an import writes it
      expect([bodies['old-file'].apiKey, bodies['old-file'].options.headers['x-key']]).toEqual([FILE_KEY_MARKER, FILE_KEY_MARKER]);
      expect([bodies.env.apiKey, bodies.file.apiKey, bodies.file.options.headers['x-key'], bodies.sealed.apiKey]).toEqual([
        'env:OA_KEY',
        FILE_KEY_MARKER,
        FILE_KEY_MARKER,
        sealedBefore,
      ]);
      // the store opens them as it opens any admin-written credential
      const entries = await new KnexConfigStore(db.knex, { secret: SECRET }).entries();
      expect(entries.find((e) => e.id === 'clear')!.body).toMatchObject({
        apiKey: 'sk-clear-0000000001',
        options: { headers: { 'api-key': 'hdr-clear-0000000001' } },
      });
    });

    it('without GATEWAY_SECRET stops at an unencrypted admin credential, naming the provider, and changes nothing', async () => {
      await db
        .knex('config_entries')
        .insert([
          { ...provider('old-file', { apiKey: 'sk-file-0000000001' }), source: 'file' },
          provider('clear', { apiKey: 'sk-clear-0000000001', transport: 'axios' }),
          provider('fine', { apiKey: 'env:OA_KEY' }),
        ]);
      const before = await db.knex('config_entries').orderBy('seq').select('id', 'body');

      await expect(up(db.knex)).rejects.toThrow(/provider "clear" has its apiKey stored unencrypted.*set GATEWAY_SECRET/);

      expect(await db.knex('config_entries').orderBy('seq').select('id', 'body')).toEqual(before);
    });

    it('after it, a value that is neither a reference, the marker nor sealed is unreadable, never served as it is', async () => {
      await db.knex('config_entries').insert(provider('stray', { apiKey: 'sk-stray-0000000001' }));
      const store = new KnexConfigStore(db.knex, { secret: SECRET });
      const [entry] = await store.entries();
      expect(entry!.body).not.toHaveProperty('apiKey');
      expect([...store.unreadableKeys]).toEqual(['stray']);
    });
  });
});
