import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import request from 'supertest';
import { GatewayError } from '@gateway/core';
import { mountRoutes, type Route } from './route';
import { fastRoutes, serveFastFirst } from './route-dispatch';
import { openAiErrorShape } from './shared-error-dialects';

/** An app as app.ts builds it: the fast routes ahead of express's router, then the same handlers through express. */
function appOf(handlers: RequestHandler[]) {
  const app = express();
  const seen: string[] = [];
  const tracked = handlers.map((h, i): RequestHandler => {
    if (Object.keys(h).length) return h; // routers keep their identity (fastRoutes finds their routes by it)
    return (req, res, next) => {
      seen.push(`mw${i}`);
      h(req, res, next);
    };
  });
  // a request that reaches this went through express's walk
  app.use((_req, _res, next) => {
    seen.push('express');
    next();
  });
  for (const h of tracked) app.use(h);
  app.use((req, res) => res.status(404).json({ unrouted: req.path }));
  const lastResort: ErrorRequestHandler = (e, _req, res, _next) => res.status(599).json({ appError: (e as Error).message });
  app.use(lastResort);
  serveFastFirst(app, fastRoutes(tracked), lastResort);
  return { app, seen };
}

const gates = { errorShape: () => openAiErrorShape };
const route = (method: 'get' | 'post', path: string, answer: string, more: Partial<Route<unknown>> = {}) =>
  ({
    method,
    path,
    summary: answer,
    auth: { kind: 'none' },
    errors: 'openai',
    handle: (_ctx: unknown, req: express.Request, res: express.Response) => {
      if (req.query.fail) throw new GatewayError('invalid_request', 'refused by the route', { code: 'refused' });
      res.json({ answer, route: (req as { route?: { path: string } }).route?.path });
    },
    ...more,
  }) as unknown as Route<unknown>;

it('a static route runs the middleware before its router, then its own handlers; errors in its shape', async () => {
  const before: RequestHandler = (_req, res, next) => {
    res.setHeader('x-before', 'yes');
    next();
  };
  const { app, seen } = appOf([before, mountRoutes([route('post', '/v1/chat', 'chat')], {}, gates)]);
  const ok = await request(app).post('/v1/chat').send({});
  expect({ status: ok.status, body: ok.body, header: ok.headers['x-before'], seen }).toEqual({
    status: 200,
    body: { answer: 'chat', route: '/v1/chat' },
    header: 'yes',
    seen: ['mw0'], // once, and never through express's walk
  });
  const refused = await request(app).post('/v1/chat?fail=1').send({});
  expect({ status: refused.status, code: refused.body.error?.code }).toEqual({ status: 400, code: 'refused' });
});

it('an error before the route goes to the app error handler, as express does (a route never matches with an error pending)', async () => {
  const failing: RequestHandler = (_req, _res, next) => next(new Error('gate closed'));
  const { app } = appOf([failing, mountRoutes([route('post', '/v1/chat', 'chat')], {}, gates)]);
  const res = await request(app).post('/v1/chat').send({});
  expect({ status: res.status, body: res.body }).toEqual({ status: 599, body: { appError: 'gate closed' } });
});

it('an earlier parameter route that matches the path keeps precedence; other paths fall through to express', async () => {
  const { app } = appOf([
    mountRoutes([route('get', '/v1/things/{id}', 'by id')], {}, gates),
    mountRoutes([route('get', '/v1/things/list', 'list'), route('get', '/v1/other', 'other')], {}, gates),
  ]);
  expect((await request(app).get('/v1/things/list')).body.answer).toBe('by id'); // as express: declared first
  const { app: counted, seen } = appOf([mountRoutes([route('get', '/v1/other', 'other')], {}, gates)]);
  expect((await request(counted).get('/v1/other')).body.answer).toBe('other');
  expect(seen).toEqual([]);
  expect((await request(counted).get('/v1/other/')).body.answer).toBe('other'); // trailing slash: through express
  expect(seen).toEqual(['express']);
  expect((await request(app).get('/V1/OTHER')).body.answer).toBe('other'); // letter case: through express
  expect((await request(app).get('/v1/things/abc')).body.answer).toBe('by id');
  expect((await request(app).get('/v1/none')).body).toEqual({ unrouted: '/v1/none' });
  expect((await request(app).post('/v1/other')).body).toEqual({ unrouted: '/v1/other' }); // another method
});

it('a route with `first` handlers (which may pass a request on) stays with express', async () => {
  const pass: RequestHandler = (_req, _res, next) => next('route');
  const { app } = appOf([
    mountRoutes([route('get', '/v1/shared', 'first', { first: [pass] }), route('get', '/v1/shared', 'second')], {}, gates),
  ]);
  expect((await request(app).get('/v1/shared')).body.answer).toBe('second');
});

it('a route with path parameters runs from the map once decided, its parameters decoded as express decodes them', async () => {
  const echo = (path: string) =>
    ({
      ...route('post', path, 'echo'),
      handle: (_ctx: unknown, req: express.Request, res: express.Response) => res.json({ params: req.params, route: req.route?.path }),
    }) as unknown as Route<unknown>;
  const { app, seen } = appOf([mountRoutes([echo('/v1beta/models/{model}:generateContent')], {}, gates)]);
  const model = 'gemini-2.5:flash é';
  for (let i = 0; i < 2; i++) {
    const res = await request(app)
      .post(`/v1beta/models/${encodeURIComponent(model)}:generateContent`)
      .send({});
    expect(res.body).toEqual({ params: { model }, route: '/v1beta/models/:model\\:generateContent' });
  }
  expect(seen).toEqual([]); // never through express's walk, the first time included
  // what express alone answers for the same requests: the same
  const plain = express().use(mountRoutes([echo('/v1beta/models/{model}:generateContent')], {}, gates));
  const viaExpress = await request(plain)
    .post(`/v1beta/models/${encodeURIComponent(model)}:generateContent`)
    .send({});
  expect(viaExpress.body.params).toEqual({ model });
  // another letter case, a trailing slash, an escape that does not decode: through express
  await request(app).post('/V1BETA/models/m:generateContent').send({});
  await request(app).post('/v1beta/models/m:generateContent/').send({});
  const bad = await request(app).post('/v1beta/models/%E0%A4%A:generateContent').send({});
  expect(seen).toEqual(['express', 'express', 'express']);
  expect({ status: bad.status, body: bad.body }).toEqual({ status: 599, body: { appError: expect.stringMatching(/decode/i) } }); // express's own error
});

it('an earlier route that matches a parameter path keeps precedence over a later one, decided per path', async () => {
  const { app, seen } = appOf([
    mountRoutes([route('post', '/v1/models/special:go', 'special')], {}, gates),
    mountRoutes([route('post', '/v1/models/{model}:go', 'any model'), route('post', '/v1/models/{model}:{verb}', 'any verb')], {}, gates),
  ]);
  expect((await request(app).post('/v1/models/special:go').send({})).body.answer).toBe('special');
  expect((await request(app).post('/v1/models/other:go').send({})).body.answer).toBe('any model');
  expect((await request(app).post('/v1/models/other:stop').send({})).body.answer).toBe('any verb');
  expect((await request(app).post('/v1/models/SPECIAL:go').send({})).body.answer).toBe('special'); // express: any case
  expect(seen).toEqual(['express']);
});

it("a hot route is served without express's router; the request looks as express would have made it", async () => {
  const look = {
    ...route('post', '/v1/look', 'look'),
    handle: (_ctx: unknown, req: express.Request, res: express.Response) =>
      res.json({ url: req.originalUrl, base: req.baseUrl, query: req.query, ip: typeof req.ip, app: req.app === res.app }),
  } as unknown as Route<unknown>;
  const { app } = appOf([mountRoutes([look, route('get', '/v1/other', 'other')], {}, gates)]);
  const walked = jest.spyOn(app.router as unknown as { handle: () => void }, 'handle');
  const res = await request(app).post('/v1/look?a=1&b[c]=2').send({});
  expect(res.body).toEqual({ url: '/v1/look?a=1&b[c]=2', base: '', query: { a: '1', 'b[c]': '2' }, ip: 'string', app: true });
  expect(walked).not.toHaveBeenCalled();
  // a miss (here HEAD, which express answers from GET) and a request handed down by a parent app: express's router
  expect((await request(app).head('/v1/other')).status).toBe(200);
  const parent = express().use('/api', app);
  expect((await request(parent).post('/api/v1/look').send({})).body).toMatchObject({ url: '/api/v1/look', base: '/api' });
  expect(walked).toHaveBeenCalledTimes(2);
});
