import request from 'supertest';
import { binaryBody } from './support/binary-body';
import { ALPHA_KEY, BETA_KEY, type TestGateway } from './support/test-gateway';
import { SLOW_MODEL, startVideoGateway, waitForTask } from './support/video-gateways';
import { isMp4 } from './support/video-fixtures';

/** GET /admin/tasks (+ /{id}, /{id}/content): every account's video tasks for the platform admin, read only. */
const ADMIN = 'sk-admin-tasks-0001';

describe('the admin task routes', () => {
  let gw: TestGateway;
  let member: string;
  const ids: Record<'alpha' | 'betaDone' | 'betaQueued', string> = { alpha: '', betaDone: '', betaQueued: '' };
  const admin = (path: string) => request(gw.app).get(path).set('Authorization', `Bearer ${ADMIN}`);
  const create = async (key: string, model: string) => {
    const res = await request(gw.app)
      .post('/v1/videos')
      .set('Authorization', `Bearer ${key}`)
      .send({ model, prompt: 'a fox', seconds: '4' });
    expect(res.status).toBe(200);
    return res.body.id as string;
  };

  beforeAll(async () => {
    gw = await startVideoGateway({ worker: true, env: { adminKey: ADMIN } });
    const made = await request(gw.app).post('/admin/keys').set('Authorization', `Bearer ${ADMIN}`).send({ account: 'alpha' });
    expect(made.body.role).toBe('member');
    member = made.body.key;
    ids.alpha = await create(ALPHA_KEY, 'sim-video-2.0');
    ids.betaDone = await create(BETA_KEY, 'sim-video-2.5');
    ids.betaQueued = await create(BETA_KEY, SLOW_MODEL);
    expect(await waitForTask(gw.app, ids.alpha, ALPHA_KEY)).toBe('succeeded');
    expect(await waitForTask(gw.app, ids.betaDone, BETA_KEY)).toBe('succeeded');
  }, 120_000);
  afterAll(async () => gw?.stop());

  it.each([['/admin/tasks'], ['/admin/tasks/x_1'], ['/admin/tasks/x_1/content']])(
    'refuses account keys on %s: 401 in the admin (OpenAI) shape',
    async (path) => {
      for (const key of [member, ALPHA_KEY]) {
        const res = await request(gw.app).get(path).set('Authorization', `Bearer ${key}`);
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ error: expect.objectContaining({ code: 'invalid_admin_key', message: expect.any(String) }) });
      }
      expect((await request(gw.app).get(path)).status).toBe(401);
    },
  );

  it("lists every account's tasks newest first, each with its account and the task-read fields", async () => {
    const res = await admin('/admin/tasks');
    expect(res.status).toBe(200);
    expect(res.body.data.map((t: { id: string }) => t.id)).toEqual([ids.betaQueued, ids.betaDone, ids.alpha]);
    expect(res.body).toMatchObject({ object: 'list', has_more: false, first_id: ids.betaQueued, last_id: ids.alpha });
    const [queued, done, alpha] = res.body.data;
    expect(alpha).toMatchObject({ account: 'alpha', model: 'sim-video-2.0', status: 'succeeded', duration: 4, key_id: expect.any(String) });
    expect(done).toMatchObject({ account: 'beta', model: 'sim-video-2.5', status: 'succeeded' });
    expect(done.content.video_url).toMatch(new RegExp(`/admin/tasks/${ids.betaDone}/content$`));
    expect(queued).toMatchObject({ account: 'beta', status: 'queued', content: {} });
    // the same fields the account's own task-read route shows
    const own = await request(gw.app).get(`/v1/contents/generations/tasks/${ids.alpha}`).set('Authorization', `Bearer ${ALPHA_KEY}`);
    expect(alpha).toEqual({ ...own.body, content: alpha.content, account: 'alpha', key_id: alpha.key_id });
  });

  it('filters by account, status and model, and pages with after', async () => {
    const listed = async (q: string) => (await admin(`/admin/tasks?${q}`)).body.data.map((t: { id: string }) => t.id);
    expect(await listed('account=beta')).toEqual([ids.betaQueued, ids.betaDone]);
    expect(await listed('status=succeeded')).toEqual([ids.betaDone, ids.alpha]);
    expect(await listed('model=sim-video-2.0')).toEqual([ids.alpha]);
    expect(await listed('account=alpha&status=queued')).toEqual([]);
    const first = await admin('/admin/tasks?limit=2');
    expect(first.body).toMatchObject({ has_more: true, last_id: ids.betaDone });
    const next = await admin(`/admin/tasks?limit=2&after=${first.body.last_id}`);
    expect(next.body).toMatchObject({ has_more: false, data: [expect.objectContaining({ id: ids.alpha })] });
  });

  it.each([
    ['status=done', 'invalid_status', 'status'],
    ['limit=0', 'invalid_limit', 'limit'],
    ['limit=101', 'invalid_limit', 'limit'],
    ['limit=two', 'invalid_limit', 'limit'],
    ['after=task_none', 'invalid_cursor', 'after'],
    ['acount=alpha', 'unknown_parameter', 'acount'],
    ['account=a&account=b', 'invalid_filter', 'account'],
  ])('refuses %s with 400 %s', async (q, code, param) => {
    const res = await admin(`/admin/tasks?${q}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: expect.objectContaining({ code, param, message: expect.any(String) }) });
  });

  it('reads one task of any account; an unknown id is a 404 in the admin shape', async () => {
    const one = await admin(`/admin/tasks/${ids.betaDone}`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: ids.betaDone, account: 'beta', status: 'succeeded' });
    for (const path of ['/admin/tasks/task_none', '/admin/tasks/task_none/content']) {
      const res = await admin(path);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: expect.objectContaining({ code: 'task_not_found', message: expect.any(String) }) });
    }
  });

  it("streams any account's video and poster as its own account downloads them", async () => {
    for (const [id, key] of [
      [ids.alpha, ALPHA_KEY],
      [ids.betaDone, BETA_KEY],
    ] as const) {
      const video = await binaryBody(admin(`/admin/tasks/${id}/content`));
      expect(video.status).toBe(200);
      expect(video.headers['content-type']).toBe('video/mp4');
      expect(isMp4(video.body as Buffer)).toBe(true);
      const own = await binaryBody(request(gw.app).get(`/v1/videos/${id}/content`).set('Authorization', `Bearer ${key}`));
      expect(Buffer.compare(video.body as Buffer, own.body as Buffer)).toBe(0);
      const poster = await binaryBody(admin(`/admin/tasks/${id}/content?variant=thumbnail`));
      expect(poster.status).toBe(200);
      expect(poster.headers['content-type']).toMatch(/^image\/(jpeg|png)$/);
      expect((poster.body as Buffer).length).toBeGreaterThan(0);
    }
    const part = await binaryBody(admin(`/admin/tasks/${ids.alpha}/content`).set('Range', 'bytes=4-7'));
    expect(part.status).toBe(206);
    expect((part.body as Buffer).toString('latin1')).toBe('ftyp');
  });

  it('refuses a bad variant and a task without a video yet, in the admin shape', async () => {
    const variant = await admin(`/admin/tasks/${ids.alpha}/content?variant=spritesheet`);
    expect(variant.status).toBe(400);
    expect(variant.body.error.code).toBe('invalid_variant');
    const pending = await admin(`/admin/tasks/${ids.betaQueued}/content`);
    expect(pending.status).toBe(409);
    expect(pending.body.error.code).toBe('video_not_ready');
  });

  it('lists in /openapi.json as admin-key routes, reads only', async () => {
    const doc = (await request(gw.app).get('/openapi.json')).body;
    for (const path of ['/admin/tasks', '/admin/tasks/{id}', '/admin/tasks/{id}/content'])
      expect(Object.keys(doc.paths[path] ?? {})).toEqual(['get']);
  });
});
