import type { RouteDoc } from '@gateway/http-kit';
import { GATEWAY_ROUTE_DOCS } from '../../src/openapi';

/**
 * Every endpoint the bad-input suite drives, with the error shape its format promises. The list derives from the
 * route docs of the wire formats' descriptors (and the server's own): a new format's routes are driven as soon as
 * it is registered; SAMPLES only adds what makes a request valid.
 */
export type ErrorShape = 'openai' | 'anthropic' | 'google' | 'code-message';

export interface Endpoint {
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** a path; every `{id}` is replaced by a generated id, `{model}` by a generated model name */
  path: string;
  /** the documented route it drives (`<method> <path>` as in GATEWAY_ROUTE_DOCS); the suite checks none is missing */
  route: string;
  shape: ErrorShape;
  /** `admin`: the operator key of /admin and /metrics; `none`: no key at all */
  auth?: 'key' | 'admin' | 'none';
  headers?: Record<string, string>;
  /** a valid body, mutated by the generators */
  valid?: Record<string, unknown>;
  /** creates something: a refused request must leave no trace */
  creates?: 'task' | 'response' | 'config';
}

/** What a route's entry adds to what its doc says; `route` is `<method> <path>` as documented. */
type Sample = Pick<Endpoint, 'name' | 'route'> & Partial<Pick<Endpoint, 'path' | 'shape' | 'headers' | 'valid' | 'creates'>>;

const text = (content: string) => [{ role: 'user', content }];
/** An 8×8 PNG: the smallest image every image input accepts. */
export const TINY_PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEklEQVR4nGM4wcCAFWEXHbQSALvlMgGxhdU2AAAAAElFTkSuQmCC';
export const ADMIN_KEY = 'admin-fuzz-key-0001';
const ANTHROPIC = { 'anthropic-version': '2023-06-01' };

/**
 * What the generated requests of a route start from: a valid body, the headers it needs, a path with the query
 * parameters worth mutating when the documented ones are not. Routes without an entry are driven with no body.
 */
const SAMPLES: Sample[] = [
  // text
  {
    name: 'chat',
    route: 'post /v1/chat/completions',
    valid: { model: 'sim-chat', messages: text('hi') },
  },
  {
    name: 'chat:stream',
    route: 'post /v1/chat/completions',
    valid: { model: 'sim-chat', stream: true, messages: text('hi') },
  },
  {
    name: 'messages',
    path: '/v1/messages',
    route: 'post /v1/messages',
    headers: ANTHROPIC,
    valid: { model: 'sim-chat', max_tokens: 64, messages: text('hi') },
  },
  {
    name: 'messages:stream',
    path: '/v1/messages',
    route: 'post /v1/messages',
    headers: ANTHROPIC,
    valid: { model: 'sim-chat', max_tokens: 64, stream: true, messages: text('hi') },
  },
  {
    name: 'count_tokens',
    path: '/v1/messages/count_tokens',
    route: 'post /v1/messages/count_tokens',
    headers: ANTHROPIC,
    valid: { model: 'sim-chat', messages: text('hi') },
  },
  {
    name: 'responses',
    route: 'post /v1/responses',
    valid: { model: 'sim-chat', input: 'hi' },
    creates: 'response',
  },
  {
    name: 'responses:stream',
    route: 'post /v1/responses',
    valid: { model: 'sim-chat', input: 'hi', stream: true },
    creates: 'response',
  },
  {
    name: 'compact',
    route: 'post /v1/responses/compact',
    valid: { model: 'sim-chat', input: 'hi' },
  },
  {
    name: 'responses:input_tokens',
    route: 'post /v1/responses/input_tokens',
    valid: { model: 'sim-chat', input: 'hi' },
  },
  { name: 'responses:read', route: 'get /v1/responses/{id}' },
  { name: 'responses:delete', route: 'delete /v1/responses/{id}' },
  {
    name: 'responses:input_items',
    path: '/v1/responses/{id}/input_items',
    route: 'get /v1/responses/{id}/input_items',
  },
  { name: 'responses:cancel', route: 'post /v1/responses/{id}/cancel' },
  {
    name: 'generateContent',
    route: 'post /v1beta/models/{model}:generateContent',
    valid: { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
  },
  {
    name: 'streamGenerateContent',
    path: '/v1beta/models/{model}:streamGenerateContent?alt=sse',
    route: 'post /v1beta/models/{model}:streamGenerateContent',
    valid: { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
  },
  {
    name: 'countTokens',
    route: 'post /v1beta/models/{model}:countTokens',
    valid: { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
  },
  // images
  {
    name: 'images',
    route: 'post /v1/images/generations',
    valid: { model: 'sim-image', prompt: 'a red square', size: '256x256' },
  },
  {
    name: 'images:edits',
    route: 'post /v1/images/edits',
    valid: { model: 'sim-image', prompt: 'make it blue', image: `data:image/png;base64,${TINY_PNG_BASE64}` },
  },
  {
    name: 'images:file',
    route: 'get /v1/images/files/{name}',
  },
  // model lists
  { name: 'models', path: '/v1/models?after_id={id}&limit={id}', route: 'get /v1/models' },
  {
    name: 'models:anthropic',
    path: '/v1/models?after_id={id}&limit={id}',
    route: 'get /v1/models',
    shape: 'anthropic',
    headers: ANTHROPIC,
  },
  { name: 'model', route: 'get /v1/models/{id}' },
  { name: 'model:anthropic', route: 'get /v1/models/{id}', shape: 'anthropic', headers: ANTHROPIC },
  {
    name: 'gemini-models',
    route: 'get /v1beta/models',
  },
  { name: 'gemini-model', path: '/v1beta/models/{id}', route: 'get /v1beta/models/{model}' },
  // video: three formats over one task engine
  {
    name: 'predictLongRunning',
    route: 'post /v1beta/models/{model}:predictLongRunning',
    valid: { instances: [{ prompt: 'a cat' }], parameters: { durationSeconds: 5 } },
    creates: 'task',
  },
  {
    name: 'operations:read',
    route: 'get /v1beta/models/{model}/operations/{id}',
  },
  {
    name: 'files:download',
    path: '/v1beta/files/{id}:download?alt=media',
    route: 'get /v1beta/files/{id}:download',
  },
  {
    name: 'videos',
    route: 'post /v1/videos',
    valid: { model: 'sim-video-2.0', prompt: 'a cat', seconds: '4', size: '1280x720' },
    creates: 'task',
  },
  { name: 'videos:list', path: '/v1/videos?after={id}&limit={id}&order={id}', route: 'get /v1/videos' },
  { name: 'videos:read', route: 'get /v1/videos/{id}' },
  { name: 'videos:delete', route: 'delete /v1/videos/{id}' },
  {
    name: 'videos:content',
    route: 'get /v1/videos/{id}/content',
  },
  {
    name: 'videos:edits',
    route: 'post /v1/videos/edits',
    valid: { prompt: 'x', video: { id: 'x' } },
  },
  {
    name: 'videos:extensions',
    route: 'post /v1/videos/extensions',
    valid: { prompt: 'x', seconds: '4' },
  },
  {
    name: 'videos:characters',
    route: 'post /v1/videos/characters',
    valid: { name: 'x' },
  },
  {
    name: 'videos:remix',
    route: 'post /v1/videos/{id}/remix',
    valid: { prompt: 'x' },
    creates: 'task',
  },
  {
    name: 'tasks:create',
    route: 'post /v1/contents/generations/tasks',
    valid: { model: 'sim-video-2.0', content: [{ type: 'text', text: 'a cat' }] },
    creates: 'task',
  },
  {
    name: 'tasks:list',
    path: '/v1/contents/generations/tasks?page_num={id}&page_size={id}&filter.status={id}&filter.task_ids={id}',
    route: 'get /v1/contents/generations/tasks',
  },
  {
    name: 'tasks:read',
    route: 'get /v1/contents/generations/tasks/{id}',
  },
  {
    name: 'tasks:delete',
    route: 'delete /v1/contents/generations/tasks/{id}',
  },
  // usage, metrics, operators
  { name: 'usage', path: '/v1/usage?model={id}&start_time={id}&limit={id}', route: 'get /v1/usage' },
  { name: 'metrics', path: '/metrics?name={id}', route: 'get /metrics' },
  { name: 'admin:accounts', path: '/admin/accounts?x={id}', route: 'get /admin/accounts' },
  {
    name: 'admin:accounts:create',
    route: 'post /admin/accounts',
    valid: { id: 'fuzz-account', name: 'x' },
    creates: 'config',
  },
  { name: 'admin:account', route: 'get /admin/accounts/{id}' },
  {
    name: 'admin:quota',
    route: 'get /admin/accounts/{id}/quota',
  },
  {
    name: 'admin:quota:set',
    route: 'put /admin/accounts/{id}/quota',
    valid: { credit_limit: 100 },
    creates: 'config',
  },
  { name: 'admin:keys', route: 'get /admin/keys' },
  {
    name: 'admin:keys:create',
    route: 'post /admin/keys',
    valid: { account: 'alpha', group: 'default' },
    creates: 'config',
  },
  {
    name: 'admin:keys:revoke',
    route: 'delete /admin/keys/{id}',
    creates: 'config',
  },
  ...(['providers', 'models', 'groups'] as const).flatMap((kind): Sample[] => [
    { name: `admin:${kind}`, path: `/admin/${kind}?x={id}`, route: `get /admin/${kind}` },
    {
      name: `admin:${kind}:put`,
      route: `put /admin/${kind}/{id}`,
      creates: 'config',
      valid:
        kind === 'providers' ? { type: 'simulator' } : kind === 'models' ? { kind: 'text', provider: 'sim' } : { models: ['sim-chat'] },
    },
    {
      name: `admin:${kind}:delete`,
      route: `delete /admin/${kind}/{id}`,
      creates: 'config',
    },
  ]),
];

/** Documented routes that take no input worth generating: fixed probes and the document itself. */
export const NOT_FUZZED = ['get /healthz', 'get /readyz', 'get /openapi.json'];

const routeOf = (d: RouteDoc) => `${d.method} ${d.path}`;

/** The documented path with `{id}` for every identifier (`{model}` stays) and `{id}` for each query parameter. */
function fuzzPath(d: RouteDoc): string {
  const p = d.path.replace(/\{(?!model\})[^}]+\}/g, '{id}');
  const query = (d.params ?? []).filter((x) => x.in === 'query').map((x) => `${x.name}={id}`);
  return query.length ? `${p}?${query.join('&')}` : p;
}

function fromDoc(d: RouteDoc): Omit<Endpoint, 'name'> {
  return {
    method: d.method.toUpperCase() as Endpoint['method'],
    path: fuzzPath(d),
    route: routeOf(d),
    shape: [d.errors].flat()[0] as ErrorShape,
    auth: d.auth.kind === 'none' ? 'none' : d.auth.kind === 'admin-key' ? 'admin' : 'key',
  };
}

const stale = SAMPLES.filter((s) => !GATEWAY_ROUTE_DOCS.some((d) => routeOf(d) === s.route)).map((s) => s.name);
if (stale.length) throw new Error(`Fuzz samples for undocumented routes: ${stale.join(', ')}`);

export const ENDPOINTS: Endpoint[] = GATEWAY_ROUTE_DOCS.filter((d) => !NOT_FUZZED.includes(routeOf(d))).flatMap((d) => {
  const samples = SAMPLES.filter((s) => s.route === routeOf(d));
  return (samples.length ? samples : [{ name: routeOf(d), route: routeOf(d) }]).map((s) => ({ ...fromDoc(d), ...s }));
});

/** Checks a body against the format's promised error shape; returns a problem or null. */
export function errorShapeProblem(shape: ErrorShape, body: unknown): string | null {
  const b = body as Record<string, any>;
  const strings = (o: Record<string, unknown>, keys: string[]) => keys.every((k) => typeof o?.[k] === 'string');
  switch (shape) {
    case 'openai':
      return b?.error && strings(b.error, ['message', 'type', 'param', 'code'])
        ? null
        : 'not {error:{message,type,param,code}} with strings';
    case 'anthropic':
      return b?.type === 'error' && b.error && strings(b.error, ['type', 'message']) ? null : 'not {type:"error", error:{type,message}}';
    case 'google':
      return b?.error && typeof b.error.code === 'number' && strings(b.error, ['message', 'status'])
        ? null
        : 'not {error:{code,message,status}}';
    case 'code-message':
      return b && strings(b, ['code', 'message']) ? null : 'not {code,message}';
  }
}
