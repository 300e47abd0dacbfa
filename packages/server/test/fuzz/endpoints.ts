/** Every endpoint the bad-input suite drives, with the error shape its format promises. */
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

const text = (content: string) => [{ role: 'user', content }];
/** An 8×8 PNG: the smallest image every image input accepts. */
export const TINY_PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEklEQVR4nGM4wcCAFWEXHbQSALvlMgGxhdU2AAAAAElFTkSuQmCC';
export const ADMIN_KEY = 'admin-fuzz-key-0001';
const ANTHROPIC = { 'anthropic-version': '2023-06-01' };

export const ENDPOINTS: Endpoint[] = [
  // text
  {
    name: 'chat',
    method: 'POST',
    path: '/v1/chat/completions',
    route: 'post /v1/chat/completions',
    shape: 'openai',
    valid: { model: 'sim-chat', messages: text('hi') },
  },
  {
    name: 'chat:stream',
    method: 'POST',
    path: '/v1/chat/completions',
    route: 'post /v1/chat/completions',
    shape: 'openai',
    valid: { model: 'sim-chat', stream: true, messages: text('hi') },
  },
  {
    name: 'messages',
    method: 'POST',
    path: '/v1/messages',
    route: 'post /v1/messages',
    shape: 'anthropic',
    headers: ANTHROPIC,
    valid: { model: 'sim-chat', max_tokens: 64, messages: text('hi') },
  },
  {
    name: 'messages:stream',
    method: 'POST',
    path: '/v1/messages',
    route: 'post /v1/messages',
    shape: 'anthropic',
    headers: ANTHROPIC,
    valid: { model: 'sim-chat', max_tokens: 64, stream: true, messages: text('hi') },
  },
  {
    name: 'count_tokens',
    method: 'POST',
    path: '/v1/messages/count_tokens',
    route: 'post /v1/messages/count_tokens',
    shape: 'anthropic',
    headers: ANTHROPIC,
    valid: { model: 'sim-chat', messages: text('hi') },
  },
  {
    name: 'responses',
    method: 'POST',
    path: '/v1/responses',
    route: 'post /v1/responses',
    shape: 'openai',
    valid: { model: 'sim-chat', input: 'hi' },
    creates: 'response',
  },
  {
    name: 'responses:stream',
    method: 'POST',
    path: '/v1/responses',
    route: 'post /v1/responses',
    shape: 'openai',
    valid: { model: 'sim-chat', input: 'hi', stream: true },
    creates: 'response',
  },
  {
    name: 'compact',
    method: 'POST',
    path: '/v1/responses/compact',
    route: 'post /v1/responses/compact',
    shape: 'openai',
    valid: { model: 'sim-chat', input: 'hi' },
  },
  {
    name: 'responses:input_tokens',
    method: 'POST',
    path: '/v1/responses/input_tokens',
    route: 'post /v1/responses/input_tokens',
    shape: 'openai',
    valid: { model: 'sim-chat', input: 'hi' },
  },
  { name: 'responses:read', method: 'GET', path: '/v1/responses/{id}', route: 'get /v1/responses/{id}', shape: 'openai' },
  { name: 'responses:delete', method: 'DELETE', path: '/v1/responses/{id}', route: 'delete /v1/responses/{id}', shape: 'openai' },
  {
    name: 'responses:input_items',
    method: 'GET',
    path: '/v1/responses/{id}/input_items',
    route: 'get /v1/responses/{id}/input_items',
    shape: 'openai',
  },
  { name: 'responses:cancel', method: 'POST', path: '/v1/responses/{id}/cancel', route: 'post /v1/responses/{id}/cancel', shape: 'openai' },
  {
    name: 'generateContent',
    method: 'POST',
    path: '/v1beta/models/{model}:generateContent',
    route: 'post /v1beta/models/{model}:generateContent',
    shape: 'google',
    valid: { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
  },
  {
    name: 'streamGenerateContent',
    method: 'POST',
    path: '/v1beta/models/{model}:streamGenerateContent?alt=sse',
    route: 'post /v1beta/models/{model}:streamGenerateContent',
    shape: 'google',
    valid: { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
  },
  {
    name: 'countTokens',
    method: 'POST',
    path: '/v1beta/models/{model}:countTokens',
    route: 'post /v1beta/models/{model}:countTokens',
    shape: 'google',
    valid: { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
  },
  // images
  {
    name: 'images',
    method: 'POST',
    path: '/v1/images/generations',
    route: 'post /v1/images/generations',
    shape: 'openai',
    valid: { model: 'sim-image', prompt: 'a red square', size: '256x256' },
  },
  {
    name: 'images:edits',
    method: 'POST',
    path: '/v1/images/edits',
    route: 'post /v1/images/edits',
    shape: 'openai',
    valid: { model: 'sim-image', prompt: 'make it blue', image: `data:image/png;base64,${TINY_PNG_BASE64}` },
  },
  {
    name: 'images:file',
    method: 'GET',
    path: '/v1/images/files/{id}',
    route: 'get /v1/images/files/{name}',
    shape: 'openai',
    auth: 'none',
  },
  // model lists
  { name: 'models', method: 'GET', path: '/v1/models?after_id={id}&limit={id}', route: 'get /v1/models', shape: 'openai' },
  {
    name: 'models:anthropic',
    method: 'GET',
    path: '/v1/models?after_id={id}&limit={id}',
    route: 'get /v1/models',
    shape: 'anthropic',
    headers: ANTHROPIC,
  },
  { name: 'model', method: 'GET', path: '/v1/models/{id}', route: 'get /v1/models/{id}', shape: 'openai' },
  { name: 'model:anthropic', method: 'GET', path: '/v1/models/{id}', route: 'get /v1/models/{id}', shape: 'anthropic', headers: ANTHROPIC },
  {
    name: 'gemini-models',
    method: 'GET',
    path: '/v1beta/models?pageSize={id}&pageToken={id}',
    route: 'get /v1beta/models',
    shape: 'google',
  },
  { name: 'gemini-model', method: 'GET', path: '/v1beta/models/{id}', route: 'get /v1beta/models/{model}', shape: 'google' },
  // video: three formats over one task engine
  {
    name: 'predictLongRunning',
    method: 'POST',
    path: '/v1beta/models/{model}:predictLongRunning',
    route: 'post /v1beta/models/{model}:predictLongRunning',
    shape: 'code-message',
    valid: { instances: [{ prompt: 'a cat' }], parameters: { durationSeconds: 5 } },
    creates: 'task',
  },
  {
    name: 'operations:read',
    method: 'GET',
    path: '/v1beta/models/{model}/operations/{id}',
    route: 'get /v1beta/models/{model}/operations/{id}',
    shape: 'code-message',
  },
  {
    name: 'files:download',
    method: 'GET',
    path: '/v1beta/files/{id}:download?alt=media',
    route: 'get /v1beta/files/{id}:download',
    shape: 'code-message',
  },
  {
    name: 'videos',
    method: 'POST',
    path: '/v1/videos',
    route: 'post /v1/videos',
    shape: 'openai',
    valid: { model: 'sim-video-2.0', prompt: 'a cat', seconds: '4', size: '1280x720' },
    creates: 'task',
  },
  { name: 'videos:list', method: 'GET', path: '/v1/videos?after={id}&limit={id}&order={id}', route: 'get /v1/videos', shape: 'openai' },
  { name: 'videos:read', method: 'GET', path: '/v1/videos/{id}', route: 'get /v1/videos/{id}', shape: 'openai' },
  { name: 'videos:delete', method: 'DELETE', path: '/v1/videos/{id}', route: 'delete /v1/videos/{id}', shape: 'openai' },
  {
    name: 'videos:content',
    method: 'GET',
    path: '/v1/videos/{id}/content?variant={id}',
    route: 'get /v1/videos/{id}/content',
    shape: 'openai',
  },
  {
    name: 'videos:edits',
    method: 'POST',
    path: '/v1/videos/edits',
    route: 'post /v1/videos/edits',
    shape: 'openai',
    valid: { prompt: 'x', video: { id: 'x' } },
  },
  {
    name: 'videos:extensions',
    method: 'POST',
    path: '/v1/videos/extensions',
    route: 'post /v1/videos/extensions',
    shape: 'openai',
    valid: { prompt: 'x', seconds: '4' },
  },
  {
    name: 'videos:characters',
    method: 'POST',
    path: '/v1/videos/characters',
    route: 'post /v1/videos/characters',
    shape: 'openai',
    valid: { name: 'x' },
  },
  {
    name: 'videos:remix',
    method: 'POST',
    path: '/v1/videos/{id}/remix',
    route: 'post /v1/videos/{id}/remix',
    shape: 'openai',
    valid: { prompt: 'x' },
    creates: 'task',
  },
  {
    name: 'tasks:create',
    method: 'POST',
    path: '/v1/contents/generations/tasks',
    route: 'post /v1/contents/generations/tasks',
    shape: 'code-message',
    valid: { model: 'sim-video-2.0', content: [{ type: 'text', text: 'a cat' }] },
    creates: 'task',
  },
  {
    name: 'tasks:list',
    method: 'GET',
    path: '/v1/contents/generations/tasks?page_num={id}&page_size={id}&filter.status={id}&filter.task_ids={id}',
    route: 'get /v1/contents/generations/tasks',
    shape: 'code-message',
  },
  {
    name: 'tasks:read',
    method: 'GET',
    path: '/v1/contents/generations/tasks/{id}',
    route: 'get /v1/contents/generations/tasks/{id}',
    shape: 'code-message',
  },
  {
    name: 'tasks:delete',
    method: 'DELETE',
    path: '/v1/contents/generations/tasks/{id}',
    route: 'delete /v1/contents/generations/tasks/{id}',
    shape: 'code-message',
  },
  // usage, metrics, operators
  { name: 'usage', method: 'GET', path: '/v1/usage?model={id}&start_time={id}&limit={id}', route: 'get /v1/usage', shape: 'openai' },
  { name: 'metrics', method: 'GET', path: '/metrics?name={id}', route: 'get /metrics', shape: 'openai', auth: 'admin' },
  { name: 'admin:accounts', method: 'GET', path: '/admin/accounts?x={id}', route: 'get /admin/accounts', shape: 'openai', auth: 'admin' },
  {
    name: 'admin:accounts:create',
    method: 'POST',
    path: '/admin/accounts',
    route: 'post /admin/accounts',
    shape: 'openai',
    auth: 'admin',
    valid: { id: 'fuzz-account', name: 'x' },
    creates: 'config',
  },
  { name: 'admin:account', method: 'GET', path: '/admin/accounts/{id}', route: 'get /admin/accounts/{id}', shape: 'openai', auth: 'admin' },
  {
    name: 'admin:quota',
    method: 'GET',
    path: '/admin/accounts/{id}/quota',
    route: 'get /admin/accounts/{id}/quota',
    shape: 'openai',
    auth: 'admin',
  },
  {
    name: 'admin:quota:set',
    method: 'PUT',
    path: '/admin/accounts/{id}/quota',
    route: 'put /admin/accounts/{id}/quota',
    shape: 'openai',
    auth: 'admin',
    valid: { credit_limit: 100 },
    creates: 'config',
  },
  { name: 'admin:keys', method: 'GET', path: '/admin/keys?account={id}', route: 'get /admin/keys', shape: 'openai', auth: 'admin' },
  {
    name: 'admin:keys:create',
    method: 'POST',
    path: '/admin/keys',
    route: 'post /admin/keys',
    shape: 'openai',
    auth: 'admin',
    valid: { account: 'alpha', group: 'default' },
    creates: 'config',
  },
  {
    name: 'admin:keys:revoke',
    method: 'DELETE',
    path: '/admin/keys/{id}',
    route: 'delete /admin/keys/{id}',
    shape: 'openai',
    auth: 'admin',
    creates: 'config',
  },
  ...(['providers', 'models', 'groups'] as const).flatMap((kind): Endpoint[] => [
    { name: `admin:${kind}`, method: 'GET', path: `/admin/${kind}?x={id}`, route: `get /admin/${kind}`, shape: 'openai', auth: 'admin' },
    {
      name: `admin:${kind}:put`,
      method: 'PUT',
      path: `/admin/${kind}/{id}`,
      route: `put /admin/${kind}/{id}`,
      shape: 'openai',
      auth: 'admin',
      creates: 'config',
      valid:
        kind === 'providers' ? { type: 'simulator' } : kind === 'models' ? { kind: 'text', provider: 'sim' } : { models: ['sim-chat'] },
    },
    {
      name: `admin:${kind}:delete`,
      method: 'DELETE',
      path: `/admin/${kind}/{id}`,
      route: `delete /admin/${kind}/{id}`,
      shape: 'openai',
      auth: 'admin',
      creates: 'config',
    },
  ]),
];

/** Documented routes that take no input worth generating: fixed probes and the document itself. */
export const NOT_FUZZED = ['get /healthz', 'get /readyz', 'get /openapi.json'];

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
