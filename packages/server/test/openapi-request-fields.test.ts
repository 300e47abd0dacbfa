import { readFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { buildOpenApiDocument } from '../src/openapi';
import { BETA_KEY, startTestGateway, type TestGateway } from './support/test-gateway';

/**
 * Every request field OpenAI's specification defines for a route, and the gateway accepts, is listed in that route's
 * documented body in /openapi.json. The spec's request schemas are vendored in __fixtures__/openai-openapi.requests.json
 * (its `source` names the commit, its `roots` the route of each). A field the document leaves out is sent to the real
 * app with a value the spec allows: it must be refused, else the document hides a field the gateway takes. A field
 * documented as forwarded is sent too: it must be taken.
 */
type Schema = Record<string, any>;
const spec = JSON.parse(readFileSync(path.join(__dirname, '__fixtures__/openai-openapi.requests.json'), 'utf8'));
const schemas: Record<string, Schema> = spec.components.schemas;
const resolve = (s: Schema): Schema => (s.$ref ? resolve(schemas[String(s.$ref).split('/').pop()!]!) : s);

/** The top-level properties of a spec schema (allOf parts merged). */
function specProperties(s: Schema): Record<string, Schema> {
  const r = resolve(s);
  return Object.assign({}, ...(r.allOf ?? []).map(specProperties), r.properties ?? {});
}

/** A value the spec schema allows: the first enum value or non-null alternative, required properties only. */
function sample(s: Schema, depth = 0): unknown {
  const r = resolve(s);
  if ('const' in r) return r.const;
  if (r.enum) return r.enum.find((v: unknown) => v !== null);
  const alternatives: Schema[] | undefined = r.anyOf ?? r.oneOf;
  if (alternatives) return sample((alternatives.find((a) => resolve(a).type !== 'null') ?? alternatives[0])!, depth + 1);
  if (r.allOf) return Object.assign({}, ...r.allOf.map((p: Schema) => sample(p, depth + 1)));
  const type = [r.type].flat().find((t) => t !== 'null');
  if (type === 'string') return 'x';
  if (type === 'integer' || type === 'number') return r.minimum ?? 1;
  if (type === 'boolean') return true;
  if (type === 'array') return depth > 6 ? [] : Array.from({ length: r.minItems ?? 1 }, () => sample(r.items ?? {}, depth + 1));
  return Object.fromEntries((r.required ?? []).map((k: string) => [k, sample(r.properties?.[k] ?? { type: 'string' }, depth + 1)]));
}

/** An 8×8 grey PNG. */
const PNG_8X8 = 'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAYAAADED76LAAAAEklEQVR4nGNoaGj4jw8zjAwFADU2n8FzYJC5AAAAAElFTkSuQmCC';

/** A body each route accepts on the zero-config simulator models. */
const VALID_BODIES: Record<string, object> = {
  'POST /v1/chat/completions': { model: 'sim-chat', messages: [{ role: 'user', content: 'hi' }] },
  'POST /v1/responses': { model: 'sim-chat', input: 'hi' },
  'POST /v1/responses/input_tokens': { model: 'sim-chat', input: 'hi' },
  'POST /v1/responses/compact': { model: 'sim-chat', input: 'hi' },
  'POST /v1/images/generations': { model: 'sim-image', prompt: 'a red square' },
  'POST /v1/images/edits': { model: 'sim-image', prompt: 'make it blue', image: `data:image/png;base64,${PNG_8X8}` },
  'POST /v1/videos': { model: 'sim-video-2.0', prompt: 'a red square' },
};

const doc = buildOpenApiDocument({ publicBaseUrl: 'http://127.0.0.1' });
function documentedProperties(route: string): Record<string, { description?: string }> {
  const [method, p] = route.split(' ');
  const body = (doc.paths as Record<string, any>)[p!]?.[method!.toLowerCase()]?.requestBody;
  return body?.content?.['application/json']?.schema?.properties ?? {};
}

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway({ listen: false });
});
afterAll(() => gw.stop());

describe("/openapi.json documents every request field of OpenAI's spec the gateway accepts", () => {
  it('knows a body for every vendored route', () => {
    expect(Object.keys(VALID_BODIES).sort()).toEqual(Object.keys(spec.roots).sort());
  });

  for (const [route, root] of Object.entries(spec.roots as Record<string, string>)) {
    it(`${route} (${root})`, async () => {
      const [method, p] = route.split(' ');
      const base = VALID_BODIES[route];
      const send = (body: object) =>
        request(gw.app)[method!.toLowerCase() as 'post'](p!).set('Authorization', `Bearer ${BETA_KEY}`).send(body);
      // the base body is accepted, so a refusal below is the field's
      expect((await send(base!)).status).toBeLessThan(300);

      const documented = documentedProperties(route);
      expect(Object.keys(documented).length).toBeGreaterThan(0);
      const acceptedButUndocumented: string[] = [];
      const documentedForwardedButRefused: string[] = [];
      for (const [field, schema] of Object.entries(specProperties(schemas[root]!))) {
        if (field in base!) continue;
        // an undocumented field must be refused; one documented as forwarded must be taken
        const forwarded = documented[field]?.description?.startsWith('Forwarded as sent');
        if (field in documented && !forwarded) continue;
        const res = await send({ ...base, [field]: sample(schema) });
        expect(res.status).toBeLessThan(500);
        if (!(field in documented) && res.status < 300) acceptedButUndocumented.push(field);
        if (forwarded && res.status >= 300) documentedForwardedButRefused.push(field);
      }
      expect({ acceptedButUndocumented, documentedForwardedButRefused }).toEqual({
        acceptedButUndocumented: [],
        documentedForwardedButRefused: [],
      });
    });
  }
});
