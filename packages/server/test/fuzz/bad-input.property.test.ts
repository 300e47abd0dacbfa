import fc from 'fast-check';
import request from 'supertest';
import { GATEWAY_ROUTE_DOCS } from '../../src/openapi';
import { ADMIN_KEY, ENDPOINTS, errorShapeProblem, NOT_FUZZED, type Endpoint } from './endpoints';
import { fuzzRuns, UNCAPPED, hostileString, hostileValue, leakProblem, recordCase, rowCounts, writeReport } from './fuzz-kit';
import { BETA_KEY, startTestGateway, testConfigFile, type TestGateway } from '../support/test-gateway';

/**
 * Generated bad input against every endpoint: the answer is never a 5xx, a 4xx always has the endpoint's error
 * shape, nothing internal leaks, and a refused creation writes nothing. FUZZ_RUNS sets runs per endpoint
 * (`npm run fuzz` runs many more and prints the counts).
 */
const RUNS = fuzzRuns(60);
jest.setTimeout(300_000);

const printable = fc.oneof(fc.stringMatching(/^[\x21-\x7e]{0,80}$/), fc.constantFrom('', 'sk-', 'sk-' + 'x'.repeat(300), 'Bearer', 'null'));

const mutation = (ep: Endpoint) =>
  fc.oneof(
    {
      weight: 4,
      arbitrary: fc.record({
        // a field of the valid body (or an unknown one) replaced by something hostile
        kind: fc.constant('field' as const),
        field: fc.oneof(fc.constantFrom(...Object.keys(ep.valid ?? { x: 1 })), hostileString),
        value: hostileValue,
      }),
    },
    // not JSON at all, or truncated JSON
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('raw' as const),
        raw: fc.oneof(fc.string({ maxLength: 200 }), fc.constant(JSON.stringify(ep.valid ?? {}).slice(0, 17))),
        contentType: fc.constantFrom(
          'application/json',
          'text/plain',
          'multipart/form-data; boundary=zz',
          'multipart/form-data',
          'application/x-www-form-urlencoded',
          'application/json; charset=utf-7',
          'image/png',
        ),
      }),
    },
    // a whole random JSON value as the body
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('any' as const), value: fc.anything({ maxDepth: 3 }) }) },
    // a missing, malformed or unknown credential
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('auth' as const),
        header: fc.constantFrom('authorization', 'x-api-key', 'x-goog-api-key'),
        value: fc.oneof(
          printable,
          printable.map((s) => `Bearer ${s}`),
        ),
      }),
    },
  );

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway({ env: { adminKey: ADMIN_KEY }, config: testConfigFile({ limits: UNCAPPED }) });
});
afterAll(async () => {
  writeReport('bad-input');
  await gw.stop();
});

const fill = (path: string, id: string, model: string) =>
  path.replaceAll('{id}', encodeURIComponent(id)).replaceAll('{model}', encodeURIComponent(model));
const verb = (m: Endpoint['method']) => (({ GET: 'get', POST: 'post', PUT: 'put', PATCH: 'patch', DELETE: 'delete' }) as const)[m];

describe('coverage', () => {
  it('drives every documented route, each in the error shape its document promises', () => {
    const driven = new Set(ENDPOINTS.map((e) => e.route));
    const missing = GATEWAY_ROUTE_DOCS.map((r) => `${r.method} ${r.path}`).filter((r) => !driven.has(r) && !NOT_FUZZED.includes(r));
    expect(missing).toEqual([]);
    const wrongShape = ENDPOINTS.filter((e) => {
      const doc = GATEWAY_ROUTE_DOCS.find((r) => `${r.method} ${r.path}` === e.route);
      return !doc || ![doc.errors].flat().includes(e.shape);
    }).map((e) => e.name);
    expect(wrongShape).toEqual([]);
  });
});

describe.each(ENDPOINTS)('bad input: $name', (ep) => {
  it("never answers 5xx; 4xx in the format's shape; nothing leaks; refusals write nothing", async () => {
    let cases = 0;
    await fc.assert(
      fc.asyncProperty(mutation(ep), hostileString, fc.constantFrom('sim-chat', 'sim-video-2.0', 'sim-image'), async (m, id, model) => {
        cases++;
        const before = ep.creates ? await rowCounts(gw.db.knex) : null;
        const path = fill(ep.path, id || 'x', ep.method === 'POST' || ep.method === 'PUT' ? model : id || 'x');
        const headers: Record<string, string> = { ...ep.headers };
        if (ep.auth !== 'none') headers.authorization = `Bearer ${ep.auth === 'admin' ? ADMIN_KEY : BETA_KEY}`;
        if (m.kind === 'auth') {
          delete headers.authorization;
          headers[m.header] = m.value;
        }
        let req = request(gw.url)[verb(ep.method)](path).set(headers);
        if (ep.method === 'POST' || ep.method === 'PUT' || ep.method === 'PATCH') {
          if (m.kind === 'raw') req = req.set('content-type', m.contentType).send(m.raw);
          else if (m.kind === 'any') req = req.set('content-type', 'application/json').send(JSON.stringify(m.value) ?? 'null');
          else if (m.kind === 'field')
            req = req.set('content-type', 'application/json').send(JSON.stringify({ ...ep.valid, [m.field]: m.value }));
          else req = req.set('content-type', 'application/json').send(JSON.stringify(ep.valid ?? {}));
        }
        const res = await req;
        recordCase(ep.name, res.status);
        // 503 model_not_in_group is the seed's answer for a model outside the key's group (an unknown one is a 404)
        if (res.status >= 500)
          expect({ status: res.status, text: res.text }).toEqual({ status: 503, text: expect.stringContaining('model_not_in_group') });
        expect(leakProblem(res.text ?? '')).toBeNull();
        if (res.status >= 400 && res.headers['content-type']?.includes('json')) {
          // the shared model list, and a batch read or delete at /v1/batches/{…} (OpenAI's and @google/genai's path),
          // answer in the dialect of the credential: a Gemini key gets Google's shape, any other OpenAI's
          const gemini = m.kind === 'auth' && m.header === 'x-goog-api-key';
          const sharedBatch = /^(get|delete) \/v1\/batches\/\{[^}]+\}$/.test(ep.route);
          const sharedModels = /^get \/v1\/models(\/\{id\})?$/.test(ep.route);
          const shape = gemini && (sharedModels || sharedBatch) ? 'google' : sharedBatch ? 'openai' : ep.shape;
          // Gemini's delete (OpenAI has none) answers Google's shape once routed; a path refused before any route
          // (an id that does not decode) takes the path's shape, OpenAI's without a Gemini credential
          const either = sharedBatch && !gemini && ep.route.startsWith('delete');
          expect(either && !errorShapeProblem('google', res.body) ? null : errorShapeProblem(shape, res.body)).toBeNull();
        }
        if (before && res.status >= 400) expect(await rowCounts(gw.db.knex)).toEqual(before);
      }),
      // a case that does not answer within 8 s is a hang: it fails with its counterexample
      { numRuns: RUNS, timeout: 8000, endOnFailure: true },
    );
    expect(cases).toBeGreaterThanOrEqual(RUNS);
  });
});
