import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import Ajv2020 from 'ajv/dist/2020';
import request from 'supertest';
import { GatewayError } from '@gateway/core';
import { checkBody } from '@gateway/http-kit';
import { decodePredictRequest, predictBody, predictRequestSchema } from '@gateway/wire-gemini-video';
import { createVideoBody, createVideoRequestSchema, decodeCreateVideo } from '@gateway/wire-openai-videos';
import { createTaskBody, createTaskRequestSchema, decodeCreateTask } from '@gateway/wire-video-tasks';
// The validators' own schema objects, straight from their modules (the packages do not export them).
import { messagesRequestSchema } from '../../wire-anthropic-messages/src/messages.request.schema';
import { generateContentRequestSchema } from '../../wire-gemini-content/src/generate-content.request.schema';
import { chatRequestSchema } from '../../wire-openai-chat/src/chat.request.schema';
import { editRequestSchema, generationRequestSchema } from '../../wire-openai-images/src/images.request.schema';
import {
  compactRequestSchema,
  inputTokensRequestSchema,
  responsesRequestSchema,
} from '../../wire-openai-responses/src/responses.request.schema';
import { buildOpenApiDocument, GATEWAY_ROUTE_DOCS } from '../src/openapi';
import { ERROR_SHAPES, errorShapeNamed } from '../src/wire-formats';
import { BETA_KEY, startTestGateway, type TestGateway } from './support/test-gateway';

type Doc = ReturnType<typeof buildOpenApiDocument>;
type Operation = {
  parameters: Array<{ schema: object }>;
  requestBody?: { content: Record<string, { schema: object }> };
  responses: Record<string, { content?: Record<string, { schema: object }> }>;
};

let gw: TestGateway;
let doc: Doc;
beforeAll(async () => {
  gw = await startTestGateway({ listen: false });
  doc = buildOpenApiDocument({ publicBaseUrl: gw.env.publicBaseUrl });
});
afterAll(async () => {
  await gw.stop();
});

const operations = (d: Doc) =>
  Object.entries(d.paths).flatMap(([p, byMethod]) =>
    Object.entries(byMethod).map(([method, op]) => ({ method, path: p, op: op as Operation })),
  );

// ---- where routers come from ----------------------------------------------------------------------------------

const PACKAGES = path.resolve(__dirname, '../..');

/** Every non-test source file of every package. */
function sources(dir = PACKAGES): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return ['node_modules', 'dist', 'test', '__fixtures__'].includes(e.name) ? [] : sources(full);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') && full.includes(`${path.sep}src${path.sep}`) ? [full] : [];
  });
}

// ---- tests ------------------------------------------------------------------------------------------------------

describe('GET /openapi.json', () => {
  it('is served without a key, with the public base URL as its server', async () => {
    const res = await request(gw.app).get('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.body).toEqual(JSON.parse(JSON.stringify(doc)));
    expect(res.body.openapi).toBe('3.1.0');
    expect(res.body.servers).toEqual([{ url: 'https://gateway.test' }]);
  });

  it('validates as OpenAPI 3.1', async () => {
    // The validator is ESM-only and jest runs CommonJS here: it runs in a plain node process instead.
    const dir = mkdtempSync(path.join(os.tmpdir(), 'openapi-'));
    try {
      const file = path.join(dir, 'openapi.json');
      writeFileSync(file, JSON.stringify(doc));
      const validator = pathToFileURL(require.resolve('@seriousme/openapi-schema-validator')).href;
      const script = `const { Validator } = await import(${JSON.stringify(validator)});
        const v = new Validator(); const r = await v.validate(process.argv[1]);
        process.stdout.write(JSON.stringify({ ...r, version: v.version }));`;
      const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script, file], {
        env: { PATH: process.env.PATH },
      });
      expect(JSON.parse(stdout)).toEqual({ valid: true, version: '3.1' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('holds only well-formed JSON Schema 2020-12 (the OpenAPI schema does not look inside schemas)', () => {
    // x-refusal is the gateway's one annotation keyword: the stable error code a failing schema node answers with.
    const ajv = new Ajv2020({
      strictSchema: true,
      strictTypes: false,
      strictTuples: false,
      allowUnionTypes: true,
      keywords: ['x-refusal'],
    });
    for (const [name, s] of Object.entries(doc.components.schemas)) ajv.addSchema(s as object, `#/components/schemas/${name}`);
    const schemas = operations(doc).flatMap(({ op }) => [
      ...op.parameters.map((p) => p.schema),
      ...Object.values(op.requestBody?.content ?? {}).map((m) => m.schema),
      ...Object.values(op.responses).flatMap((r) => Object.values(r.content ?? {}).map((m) => m.schema)),
    ]);
    expect(schemas.length).toBeGreaterThan(50);
    for (const s of schemas) {
      if (JSON.stringify(s).includes('"$ref"')) continue;
      expect(ajv.validateSchema(s)).toBe(true);
      expect(() => ajv.compile(s)).not.toThrow();
    }
  });
});

describe('the document against the express app', () => {
  it('serves routes only from their declarations: mountRoutes makes every API router', () => {
    // The document is built from the declarations mountRoutes mounts, so a route registered any other way would be
    // served undocumented (and without its role check): none is. The dashboard's static files are not API routes.
    const allowed = new Set([path.join('http-kit', 'src', 'route.ts'), path.join('server', 'src', 'dashboard-route.ts')]);
    const offenders = sources().flatMap((file) => {
      const rel = path.relative(PACKAGES, file);
      const text = readFileSync(file, 'utf8');
      const registers = /\bRouter\(\)|\b(app|router)\.(get|post|put|patch|delete|all|route)\(/.test(text);
      return registers && !allowed.has(rel) ? [rel] : [];
    });
    expect(sources().length).toBeGreaterThan(100);
    expect(offenders).toEqual([]);
  });

  it('every documented operation is routed, and its errors come in the documented shape', async () => {
    const ajv = new Ajv2020({ strict: false });
    for (const [name, s] of Object.entries(doc.components.schemas)) ajv.addSchema(s as object, `#/components/schemas/${name}`);
    const failures: string[] = [];
    const checked = { success: 0, error: 0 };
    for (const { method, path: p, op } of operations(doc)) {
      const url = p.replace(/\{[^}]+\}/g, 'sample-1');
      let call = request(gw.app)[method as 'get'](url).set('Authorization', `Bearer ${BETA_KEY}`);
      if (op.requestBody) call = call.send({});
      const res = await call;
      const where = `${method.toUpperCase()} ${p} → ${res.status}`;
      if (res.status === 404 && res.text.includes('route_not_found')) failures.push(`${where}: not routed`);
      const documented = op.responses[String(res.status)] ?? (res.status >= 400 ? op.responses[`${String(res.status)[0]}XX`] : undefined);
      const schema = documented?.content?.['application/json']?.schema;
      if (!schema) {
        if (res.status >= 400) failures.push(`${where}: no documented error shape`);
        continue;
      }
      if (!String(res.headers['content-type']).includes('application/json')) continue;
      if (!ajv.validate(schema, res.body)) failures.push(`${where}: ${ajv.errorsText()} in ${res.text.slice(0, 200)}`);
      checked[res.status >= 400 ? 'error' : 'success']++;
    }
    expect(failures).toEqual([]);
    // both kinds were really compared: lists and probes answer 200, bodies of {} answer 4xx
    expect(checked.success).toBeGreaterThanOrEqual(6);
    expect(checked.error).toBeGreaterThanOrEqual(30);
  });
});

describe('one source of truth', () => {
  const jsonBody = (method: string, p: string) => {
    const r = GATEWAY_ROUTE_DOCS.find((d) => d.method === method && d.path === p);
    return r?.body?.content['application/json'];
  };

  it('documents the very schema objects the ajv validators compile', () => {
    expect(jsonBody('post', '/v1/chat/completions')).toBe(chatRequestSchema);
    expect(jsonBody('post', '/v1/messages')).toBe(messagesRequestSchema);
    expect(jsonBody('post', '/v1/responses')).toBe(responsesRequestSchema);
    expect(jsonBody('post', '/v1/responses/compact')).toBe(compactRequestSchema);
    expect(jsonBody('post', '/v1/responses/input_tokens')).toBe(inputTokensRequestSchema);
    expect(jsonBody('post', '/v1beta/models/{model}:generateContent')).toBe(generateContentRequestSchema);
    expect(jsonBody('post', '/v1beta/models/{model}:streamGenerateContent')).toBe(generateContentRequestSchema);
    expect(jsonBody('post', '/v1/images/generations')).toBe(generationRequestSchema);
    expect(jsonBody('post', '/v1/images/edits')).toBe(editRequestSchema);
  });

  it('knows the six error shapes the formats answer in', () => {
    expect([...ERROR_SHAPES.keys()].sort()).toEqual(['anthropic', 'code-message', 'cohere', 'google', 'mcp', 'openai']);
  });

  it.each([...ERROR_SHAPES.keys()])('the %s error schema matches what its renderer produces', (name) => {
    const ajv = new Ajv2020({ strict: false });
    const shape = errorShapeNamed(name);
    for (const err of [
      new GatewayError('invalid_request', 'bad', { code: 'invalid_x', param: 'x' }),
      new GatewayError('internal', 'oops'),
    ]) {
      expect(ajv.validate(shape.schema, shape.render(err).body)).toBe(true);
    }
    // and the schema is not a rubber stamp: another format's body fails it
    const other = errorShapeNamed(name === 'code-message' ? 'openai' : 'code-message').render;
    expect(ajv.validate(shape.schema, other(new GatewayError('invalid_request', 'bad')).body)).toBe(false);
  });
});

/**
 * The video bodies are checked by hand-written decoders, so their documented schemas are descriptions: every
 * property they name must be one the decoder accepts (it may still refuse the sample value), and an unknown
 * property must be refused as unknown.
 */
describe('hand-described video bodies agree with their decoders', () => {
  type Decode = (body: Record<string, unknown>) => Promise<unknown>;
  const unknownFieldCode = async (run: () => unknown) => {
    try {
      await run();
      return undefined;
    } catch (e) {
      return (e as GatewayError).code;
    }
  };
  const noFetch = async () => {
    throw new Error('no fetching here');
  };
  const propsAt = (schema: object, ...steps: string[]): string[] => {
    let s = schema as Record<string, any>;
    for (const step of steps) s = step === '[]' ? s.items : step.startsWith('oneOf') ? s.oneOf[Number(step.slice(5))] : s.properties[step];
    return Object.keys(s.properties);
  };

  const cases: Array<[string, string[], Decode, (field: string) => Record<string, unknown>]> = [
    [
      'predict: body',
      propsAt(predictRequestSchema),
      async (b) => decodePredictRequest(await checkBody(predictBody, b)),
      (f) => ({ instances: [{}], [f]: 'x' }),
    ],
    [
      'predict: instance',
      propsAt(predictRequestSchema, 'instances', '[]'),
      async (b) => decodePredictRequest(await checkBody(predictBody, b)),
      (f) => ({ instances: [{ [f]: 'x' }] }),
    ],
    [
      'predict: parameters',
      propsAt(predictRequestSchema, 'parameters'),
      async (b) => decodePredictRequest(await checkBody(predictBody, b)),
      (f) => ({ instances: [{}], parameters: { [f]: 'x' } }),
    ],
    [
      'predict: image',
      propsAt(predictRequestSchema, 'instances', '[]', 'image'),
      async (b) => decodePredictRequest(await checkBody(predictBody, b)),
      (f) => ({ instances: [{ image: { [f]: 'x' } }] }),
    ],
    [
      'predict: reference',
      propsAt(predictRequestSchema, 'instances', '[]', 'referenceImages', '[]'),
      async (b) => decodePredictRequest(await checkBody(predictBody, b)),
      (f) => ({ instances: [{ referenceImages: [{ image: {}, [f]: 'x' }] }] }),
    ],
    [
      'videos: body',
      propsAt(createVideoRequestSchema),
      async (b) => decodeCreateVideo(await checkBody(createVideoBody, b), [], noFetch),
      (f) => ({ model: 'm', [f]: 'x' }),
    ],
    [
      'tasks: body',
      propsAt(createTaskRequestSchema),
      async (b) => decodeCreateTask(await checkBody(createTaskBody, b), noFetch),
      (f) => ({ model: 'm', content: [], [f]: 'x' }),
    ],
    [
      'tasks: text item',
      propsAt(createTaskRequestSchema, 'content', '[]', 'oneOf0'),
      async (b) => decodeCreateTask(await checkBody(createTaskBody, b), noFetch),
      (f) => ({ model: 'm', content: [{ type: 'text', text: 'a', [f]: 'x' }] }),
    ],
    [
      'tasks: image item',
      propsAt(createTaskRequestSchema, 'content', '[]', 'oneOf1'),
      async (b) => decodeCreateTask(await checkBody(createTaskBody, b), noFetch),
      (f) => ({ model: 'm', content: [{ type: 'image_url', image_url: { url: 'https://x.test/a.png' }, [f]: 'x' }] }),
    ],
  ];

  it.each(cases)('%s', async (_name, props, decode, build) => {
    expect(props.length).toBeGreaterThan(0);
    for (const field of props) {
      expect([field, await unknownFieldCode(() => decode(build(field)))]).not.toEqual([field, 'unsupported_field']);
    }
    expect(await unknownFieldCode(() => decode(build('not_a_field')))).toBe('unsupported_field');
  });
});
