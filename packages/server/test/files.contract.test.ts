import { existsSync, readdirSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import request from 'supertest';
import { eventually } from '@gateway/testkit';
import { expectOpenAiError } from './support/openai-error';
import { ALPHA_KEY, BETA_KEY, startTestGateway, testConfigFile, type TestGateway } from './support/test-gateway';

const MEMBER_KEY = 'sk-alpha-member-key-0003';
const DAY = 86_400;
const BOUNDARY = 'files-contract-boundary';

/** A multipart form written by hand: the file first or last, as a client may order it. */
function form(fields: Record<string, string>, file: Buffer, fileFirst = false): Buffer {
  const part = (name: string, value: Buffer, filename?: string) =>
    Buffer.concat([
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"${filename ? `; filename="${filename}"` : ''}\r\n` +
          (filename ? 'Content-Type: application/octet-stream\r\n' : '') +
          '\r\n',
      ),
      value,
      Buffer.from('\r\n'),
    ]);
  const texts = Object.entries(fields).map(([k, v]) => part(k, Buffer.from(v)));
  const filePart = part('file', file, 'input.jsonl');
  return Buffer.concat([...(fileFirst ? [filePart, ...texts] : [...texts, filePart]), Buffer.from(`--${BOUNDARY}--\r\n`)]);
}

/**
 * A raw upload to a listening gateway: chunked (no length declared), or declaring `declaredLength`. With `unfinished`
 * the request is never ended: an answer can only come from a gateway that refuses before the body is over.
 */
function rawUpload(
  url: string,
  body: Buffer,
  opts: { declaredLength?: number; unfinished?: boolean } = {},
): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const headers: http.OutgoingHttpHeaders = {
      authorization: `Bearer ${ALPHA_KEY}`,
      'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
      ...(opts.declaredLength === undefined ? { 'transfer-encoding': 'chunked' } : { 'content-length': opts.declaredLength }),
    };
    const req = http.request(`${url}/v1/files`, { method: 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString()) });
        req.destroy();
      });
    });
    req.on('error', reject);
    for (let at = 0; at < body.length; at += 4096) req.write(body.subarray(at, at + 4096));
    if (!opts.unfinished && opts.declaredLength === undefined) req.end();
  });
}

/** What a gateway keeps of its files: rows and content objects (CONTENT_STORE=file, DATA_DIR/content/files). */
async function leftovers(gw: TestGateway) {
  const rows = await gw.db.knex('files').select('id');
  const dir = path.join(gw.dataDir, 'content', 'files');
  return { rows: rows.length, objects: existsSync(dir) ? readdirSync(dir).length : 0 };
}

describe('OpenAI files on the gateway', () => {
  let gw: TestGateway;
  let now = new Date('2026-03-01T00:00:00Z');
  const as = (key: string) => ({
    post: (p: string) => request(gw.app).post(p).set('Authorization', `Bearer ${key}`),
    get: (p: string) => request(gw.app).get(p).set('Authorization', `Bearer ${key}`),
    delete: (p: string) => request(gw.app).delete(p).set('Authorization', `Bearer ${key}`),
  });
  const upload = (key: string, purpose: string, bytes = Buffer.from('{"custom_id":"a"}\n'), extra: Record<string, string> = {}) => {
    let call = as(key).post('/v1/files').field('purpose', purpose);
    for (const [k, v] of Object.entries(extra)) call = call.field(k, v);
    return call.attach('file', bytes, 'input.jsonl');
  };

  beforeAll(async () => {
    const config = testConfigFile();
    gw = await startTestGateway({
      config: { ...config, keys: [...(config.keys ?? []), { key: MEMBER_KEY, account: 'alpha', group: 'default', role: 'member' }] },
      clock: () => now,
      env: { fileUploadBytes: 1024 },
    });
  });
  afterAll(() => gw.stop());

  it('uploads a batch file as a member key, and answers it as OpenAI does, expiring in 30 days', async () => {
    const res = await upload(MEMBER_KEY, 'batch');
    expect(res.status).toBe(200);
    const created = Math.floor(now.getTime() / 1000);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^file-[a-z0-9]+$/),
      object: 'file',
      bytes: 18,
      created_at: created,
      expires_at: created + 30 * DAY,
      filename: 'input.jsonl',
      purpose: 'batch',
      status: 'processed',
      status_details: null,
    });
    expect((await as(ALPHA_KEY).get(`/v1/files/${res.body.id}`)).body).toEqual(res.body);
    const content = await as(MEMBER_KEY).get(`/v1/files/${res.body.id}/content`).buffer(true);
    expect(content.status).toBe(200);
    expect(content.headers['content-type']).toBe('application/octet-stream');
    expect(content.body.toString()).toBe('{"custom_id":"a"}\n');
    const gone = await as(MEMBER_KEY).delete(`/v1/files/${res.body.id}`);
    expect(gone.body).toEqual({ id: res.body.id, object: 'file', deleted: true });
    expectOpenAiError(await as(ALPHA_KEY).get(`/v1/files/${res.body.id}`), 404);
    expectOpenAiError(await as(ALPHA_KEY).delete(`/v1/files/${res.body.id}`), 404);
  });

  it('user_data files never expire unless expires_after says so; the SDK form of expires_after is read', async () => {
    const kept = await upload(ALPHA_KEY, 'user_data');
    expect(kept.body).toMatchObject({ purpose: 'user_data', expires_at: null });
    const short = await upload(ALPHA_KEY, 'user_data', undefined, {
      'expires_after[anchor]': 'created_at',
      'expires_after[seconds]': '3600',
    });
    expect(short.body.expires_at).toBe(short.body.created_at + 3600);
    const batch = await upload(ALPHA_KEY, 'batch', undefined, { 'expires_after[anchor]': 'created_at', 'expires_after[seconds]': '7200' });
    expect(batch.body.expires_at).toBe(batch.body.created_at + 7200);
  });

  it('an expired file is missing at once', async () => {
    const f = (await upload(ALPHA_KEY, 'batch', undefined, { 'expires_after[anchor]': 'created_at', 'expires_after[seconds]': '3600' }))
      .body;
    now = new Date(now.getTime() + 3_600_000);
    expectOpenAiError(await as(ALPHA_KEY).get(`/v1/files/${f.id}`), 404);
    expectOpenAiError(await as(ALPHA_KEY).get(`/v1/files/${f.id}/content`), 404);
    expect((await as(ALPHA_KEY).get('/v1/files')).body.data.map((x: { id: string }) => x.id)).not.toContain(f.id);
  });

  it("another account's file behaves exactly as a missing one", async () => {
    const f = (await upload(ALPHA_KEY, 'user_data')).body;
    const missingId = `file-${'0'.repeat(33)}`;
    for (const [method, suffix] of [
      ['get', ''],
      ['get', '/content'],
      ['delete', ''],
    ] as const) {
      const theirs = await as(BETA_KEY)[method](`/v1/files/${f.id}${suffix}`);
      const missing = await as(BETA_KEY)[method](`/v1/files/${missingId}${suffix}`);
      expectOpenAiError(theirs, 404);
      expect(theirs.body).toEqual(JSON.parse(JSON.stringify(missing.body).replaceAll(missingId, f.id)));
      expect(theirs.body.error.message).toBe(`No such File object: ${f.id}`);
    }
    expect((await as(BETA_KEY).get('/v1/files')).body).toEqual({
      object: 'list',
      data: [],
      first_id: null,
      last_id: null,
      has_more: false,
    });
    expect((await as(ALPHA_KEY).get(`/v1/files/${f.id}`)).status).toBe(200);
  });

  it('lists newest first with the OpenAI envelope, pages by after, filters by purpose and orders asc', async () => {
    const ids: string[] = [];
    for (const purpose of ['batch', 'user_data', 'batch']) {
      now = new Date(now.getTime() + 1000);
      ids.push((await upload(BETA_KEY, purpose)).body.id);
    }
    const first = (await as(BETA_KEY).get('/v1/files?limit=2')).body;
    expect(first).toMatchObject({ object: 'list', first_id: ids[2], last_id: ids[1], has_more: true });
    expect(first.data.map((f: { id: string }) => f.id)).toEqual([ids[2], ids[1]]);
    const rest = (await as(BETA_KEY).get(`/v1/files?limit=2&after=${first.last_id}`)).body;
    expect(rest).toMatchObject({ first_id: ids[0], last_id: ids[0], has_more: false });
    const asc = (await as(BETA_KEY).get('/v1/files?order=asc&purpose=batch')).body;
    expect(asc.data.map((f: { id: string }) => f.id)).toEqual([ids[0], ids[2]]);
    for (const bad of ['limit=0', 'limit=10001', 'limit=two', 'order=sideways'])
      expectOpenAiError(await as(BETA_KEY).get(`/v1/files?${bad}`), 400);
  });

  it('refuses other purposes, a bad expires_after, a missing file and a JSON body with a clear 400, keeping nothing', async () => {
    const before = await leftovers(gw);
    const refused = await upload(ALPHA_KEY, 'fine-tune');
    expectOpenAiError(refused, 400, 'invalid_purpose', 'purpose');
    expect(refused.body.error.message).toMatch(/batch, user_data/);
    expectOpenAiError(
      await upload(ALPHA_KEY, 'batch', undefined, { 'expires_after[anchor]': 'created_at', 'expires_after[seconds]': '60' }),
      400,
    );
    expectOpenAiError(
      await upload(ALPHA_KEY, 'batch', undefined, { 'expires_after[anchor]': 'last_active_at', 'expires_after[seconds]': '3600' }),
      400,
    );
    expectOpenAiError(await as(ALPHA_KEY).post('/v1/files').field('purpose', 'batch'), 400, 'missing_required_parameter', 'file');
    expectOpenAiError(await as(ALPHA_KEY).post('/v1/files').send({ purpose: 'batch' }), 400, 'unsupported_content_type');
    expect(await leftovers(gw)).toEqual(before);
  });

  it('reads the fields when the form sends them after the file', async () => {
    const res = await as(ALPHA_KEY)
      .post('/v1/files')
      .set('Content-Type', `multipart/form-data; boundary=${BOUNDARY}`)
      .send(form({ purpose: 'user_data' }, Buffer.from('late fields'), true));
    expect(res.body).toMatchObject({ purpose: 'user_data', bytes: 11 });
  });

  it('a client that leaves mid-upload leaves nothing behind', async () => {
    const before = await leftovers(gw);
    const req = http.request(`${gw.url}/v1/files`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${ALPHA_KEY}`,
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
        'transfer-encoding': 'chunked',
      },
    });
    req.on('error', () => undefined); // the test ends the connection itself
    req.write(form({ purpose: 'batch' }, Buffer.alloc(1000, 97)).subarray(0, 600));
    // the bytes are on their way into the store (a partial write under content/files) ...
    await eventually(async () => (await leftovers(gw)).objects > before.objects);
    req.destroy();
    // ... and are gone once the gateway sees the client leave
    await eventually(async () => expect(await leftovers(gw)).toEqual(before));
  });

  describe('the upload limit (1024 bytes injected here; 200 MiB by default)', () => {
    it('takes a file of exactly the limit', async () => {
      expect((await upload(ALPHA_KEY, 'batch', Buffer.alloc(1024, 97))).body).toMatchObject({ bytes: 1024 });
    });

    it('refuses one byte more while it streams (no length declared), leaving no row and no content object', async () => {
      const before = await leftovers(gw);
      expect(before.rows * before.objects).toBeGreaterThan(0); // the earlier uploads are seen where they are kept
      for (const fileFirst of [false, true]) {
        const res = await rawUpload(gw.url, form({ purpose: 'batch' }, Buffer.alloc(1025, 97), fileFirst));
        expect(res).toEqual({ status: 400, body: { error: expect.objectContaining({ code: 'file_too_large', param: 'file' }) } });
        expect(res.body.error.message).toContain('1024 bytes');
      }
      // cut while it streams: the answer comes although the form never ends
      const open = form({ purpose: 'batch' }, Buffer.alloc(64 * 1024, 97)).subarray(0, 32 * 1024);
      expect((await rawUpload(gw.url, open, { unfinished: true })).status).toBe(400);
      // far past the limit, ended: the rest is drained unread
      expect((await rawUpload(gw.url, form({ purpose: 'batch' }, Buffer.alloc(512 * 1024, 97)))).status).toBe(400);
      expect(await leftovers(gw)).toEqual(before);
    });
  });
});

describe('the default upload limit', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.stop());

  it('is 209,715,200 bytes: a body declared past it (and its form) is refused before it is read', async () => {
    const res = await rawUpload(gw.url, form({ purpose: 'batch' }, Buffer.alloc(10)), { declaredLength: 209_715_200 + 64 * 1024 + 1 });
    expect(res).toEqual({ status: 400, body: { error: expect.objectContaining({ code: 'file_too_large', param: 'file' }) } });
    expect(res.body.error.message).toBe('A file may be at most 209715200 bytes (200 MiB).');
    expect(await leftovers(gw)).toEqual({ rows: 0, objects: 0 });
  });
});

describe('files in the database (CONTENT_STORE=postgres)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ env: { contentStore: 'postgres', fileUploadBytes: 1024 } });
  });
  afterAll(() => gw.stop());
  const kept = async () => ({
    rows: (await gw.db.knex('files').select('id')).length,
    // keyless rows are writes in progress or abandoned
    objects: (await gw.db.knex('content_objects').whereLike('key', 'files/%').orWhereNull('key').select('id')).length,
  });

  it('round-trips the bytes, and a refused upload leaves neither row nor chunks', async () => {
    const up = await request(gw.app)
      .post('/v1/files')
      .set('Authorization', `Bearer ${ALPHA_KEY}`)
      .field('purpose', 'batch')
      .attach('file', Buffer.from('in the database'), 'db.jsonl');
    expect(up.status).toBe(200);
    const content = await request(gw.app).get(`/v1/files/${up.body.id}/content`).set('Authorization', `Bearer ${ALPHA_KEY}`).buffer(true);
    expect(content.body.toString()).toBe('in the database');
    expect(await kept()).toEqual({ rows: 1, objects: 1 });
    const res = await rawUpload(gw.url, form({ purpose: 'batch' }, Buffer.alloc(1025, 97)));
    expect(res.body.error).toMatchObject({ code: 'file_too_large' });
    expect(await kept()).toEqual({ rows: 1, objects: 1 });
  });
});
