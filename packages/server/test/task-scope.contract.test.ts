import request from 'supertest';
import { ALPHA_KEY, startTestGateway, type TestGateway } from './support/test-gateway';

/**
 * A key narrowed to its own tasks (`tasks: "own"`) reads, lists and cancels only the tasks it created, on each of
 * the three video formats; another key's task of the same account answers exactly like an unknown one, in the
 * format's own error shape. Keys without the setting keep seeing the whole account's tasks.
 */
const ADMIN = 'sk-admin-task-scope-0001';
let gw: TestGateway;
let own: string;
let ownId: string;
let other: string;

beforeAll(async () => {
  // the background workers stay off: tasks stay queued, so DELETE cancels them
  gw = await startTestGateway({ listen: false, env: { adminKey: ADMIN, keyCacheTtlMs: 0 } });
  const made = await request(gw.app).post('/admin/keys').set('Authorization', `Bearer ${ADMIN}`).send({ account: 'alpha', tasks: 'own' });
  expect(made.status).toBe(201);
  expect(made.body.tasks).toBe('own');
  [own, ownId] = [made.body.key, made.body.id];
  other = (await request(gw.app).post('/admin/keys').set('Authorization', `Bearer ${ADMIN}`).send({ account: 'alpha' })).body.key;
}, 60_000);
afterAll(async () => gw?.stop());

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

async function tasksTask(key: string) {
  const res = await request(gw.app)
    .post('/v1/contents/generations/tasks')
    .set(bearer(key))
    .send({ model: 'sim-video-2.0', content: [{ type: 'text', text: 'a lighthouse' }], duration: 4, resolution: '480p' });
  expect(res.status).toBe(200);
  return res.body.id as string;
}
async function openaiVideo(key: string) {
  const res = await request(gw.app)
    .post('/v1/videos')
    .set(bearer(key))
    .send({ model: 'sim-video-2.0', prompt: 'a lighthouse', seconds: '4', size: '1280x720' });
  expect(res.status).toBe(200);
  return res.body.id as string;
}
async function geminiOperation(key: string) {
  const res = await request(gw.app)
    .post('/v1beta/models/sim-video-2.0:predictLongRunning')
    .set('x-goog-api-key', key)
    .send({ instances: [{ prompt: 'a lighthouse' }], parameters: { durationSeconds: 4, resolution: '480p' } });
  expect(res.status).toBe(200);
  return String(res.body.name).split('/').at(-1)!;
}

describe('a key narrowed to its own tasks', () => {
  it("task API: reads, lists and cancels only its own; another key's task is a 404 {code,message} like an unknown one", async () => {
    const [mine, theirs] = [await tasksTask(own), await tasksTask(other)];
    const base = '/v1/contents/generations/tasks';
    expect((await request(gw.app).get(`${base}/${mine}`).set(bearer(own))).status).toBe(200);
    const hidden = await request(gw.app).get(`${base}/${theirs}`).set(bearer(own));
    const unknown = await request(gw.app).get(`${base}/nosuchtask000`).set(bearer(own));
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ code: 'task_not_found', message: expect.any(String) });
    expect(hidden.body.message.replace(theirs, 'ID')).toBe(unknown.body.message.replace('nosuchtask000', 'ID'));

    const listed = await request(gw.app).get(base).set(bearer(own));
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((t: { id: string }) => t.id)).toContain(mine);
    expect(listed.body.items.map((t: { id: string }) => t.id)).not.toContain(theirs);
    expect(listed.body.total).toBe(listed.body.items.length);

    expect((await request(gw.app).delete(`${base}/${theirs}`).set(bearer(own))).status).toBe(404);
    // nor is it watched live
    const watched = await request(gw.app).get(`${base}/${theirs}/events`).set(bearer(own));
    expect(watched.status).toBe(404);
    expect(watched.body).toEqual({ code: 'task_not_found', message: expect.any(String) });
    expect((await request(gw.app).get(`${base}/${theirs}`).set(bearer(other))).body.status).toBe('queued');
    expect((await request(gw.app).delete(`${base}/${mine}`).set(bearer(own))).body).toEqual({ id: mine, outcome: 'cancelled' });

    // a key of the account without the setting sees both
    const all = await request(gw.app).get(base).set(bearer(ALPHA_KEY));
    expect(all.body.items.map((t: { id: string }) => t.id)).toEqual(expect.arrayContaining([mine, theirs]));
  });

  it("OpenAI videos: reads, lists and deletes only its own; another key's video is a 404 in the OpenAI error shape", async () => {
    const [mine, theirs] = [await openaiVideo(own), await openaiVideo(other)];
    expect((await request(gw.app).get(`/v1/videos/${mine}`).set(bearer(own))).status).toBe(200);
    const hidden = await request(gw.app).get(`/v1/videos/${theirs}`).set(bearer(own));
    expect(hidden.status).toBe(404);
    expect(hidden.body.error).toMatchObject({ code: 'task_not_found', type: expect.any(String), message: expect.any(String) });
    expect((await request(gw.app).get(`/v1/videos/${theirs}/content`).set(bearer(own))).status).toBe(404);
    expect((await request(gw.app).post(`/v1/videos/${theirs}/remix`).set(bearer(own)).send({ prompt: 'again' })).status).toBe(404);

    const listed = (await request(gw.app).get('/v1/videos?limit=100').set(bearer(own))).body.data.map((v: { id: string }) => v.id);
    expect(listed).toContain(mine);
    expect(listed).not.toContain(theirs);
    // another key's video is no cursor either
    expect((await request(gw.app).get(`/v1/videos?after=${theirs}`).set(bearer(own))).body.error.code).toBe('invalid_cursor');

    const refused = await request(gw.app).delete(`/v1/videos/${theirs}`).set(bearer(own));
    expect(refused.status).toBe(404);
    expect(refused.body.error.code).toBe('task_not_found');
    expect((await request(gw.app).get(`/v1/videos/${theirs}`).set(bearer(other))).status).toBe(200);
    expect((await request(gw.app).delete(`/v1/videos/${mine}`).set(bearer(own))).body).toMatchObject({ id: mine, deleted: true });
  });

  it("Gemini: polls only its own operations; another key's is a 404 {code,message} like an unknown one", async () => {
    const [mine, theirs] = [await geminiOperation(own), await geminiOperation(other)];
    const op = (id: string) => `/v1beta/models/sim-video-2.0/operations/${id}`;
    expect((await request(gw.app).get(op(mine)).set('x-goog-api-key', own)).status).toBe(200);
    const hidden = await request(gw.app).get(op(theirs)).set('x-goog-api-key', own);
    const unknown = await request(gw.app).get(op('nosuchtask000')).set('x-goog-api-key', own);
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ code: 'task_not_found', message: expect.any(String) });
    expect(hidden.body.message.replace(theirs, 'ID')).toBe(unknown.body.message.replace('nosuchtask000', 'ID'));
    expect((await request(gw.app).get(op(theirs)).set('x-goog-api-key', other)).status).toBe(200);
  });

  it('is set and cleared through /admin/keys and by account admins through /v1/keys; a bad value is a 400', async () => {
    const admin = (m: 'patch' | 'get', p: string) => request(gw.app)[m](p).set('Authorization', `Bearer ${ADMIN}`);
    expect((await admin('get', `/admin/keys/${ownId}`)).body.tasks).toBe('own');

    const self = await request(gw.app).post('/v1/keys').set(bearer(ALPHA_KEY)).send({ name: 'ci', tasks: 'own' });
    expect(self.status).toBe(201);
    expect(self.body.tasks).toBe('own');
    const theirs = await tasksTask(other);
    expect((await request(gw.app).get(`/v1/contents/generations/tasks/${theirs}`).set(bearer(self.body.key))).status).toBe(404);
    const widened = await request(gw.app).patch(`/v1/keys/${self.body.id}`).set(bearer(ALPHA_KEY)).send({ tasks: 'account' });
    expect(widened.status).toBe(200);
    expect(widened.body.tasks).toBe('account');
    expect((await request(gw.app).get(`/v1/contents/generations/tasks/${theirs}`).set(bearer(self.body.key))).status).toBe(200);

    const bad = await admin('patch', `/admin/keys/${ownId}`).send({ tasks: 'mine' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'invalid_tasks', param: 'tasks' });
    const member = await request(gw.app).patch(`/v1/keys/${ownId}`).set(bearer(other)).send({ tasks: 'account' });
    expect(member.status).toBe(403);
    expect((await admin('get', `/admin/keys/${ownId}`)).body.tasks).toBe('own');
    // existing keys and keys created without the setting see the account's tasks
    expect((await admin('get', '/admin/keys?account=alpha')).body.data.find((k: { role: string }) => k.role === 'admin').tasks).toBe(
      'account',
    );
  });
});
