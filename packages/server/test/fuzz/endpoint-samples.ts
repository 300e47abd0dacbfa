import type { Endpoint } from './endpoints';

/** What a route's entry adds to what its doc says; `route` is `<method> <path>` as documented. */
export type Sample = Pick<Endpoint, 'name' | 'route'> & Partial<Pick<Endpoint, 'path' | 'shape' | 'headers' | 'valid' | 'creates'>>;

const text = (content: string) => [{ role: 'user', content }];
/** An 8×8 PNG: the smallest image every image input accepts. */
export const TINY_PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEklEQVR4nGM4wcCAFWEXHbQSALvlMgGxhdU2AAAAAElFTkSuQmCC';
export const ADMIN_KEY = 'admin-fuzz-key-0001';
const ANTHROPIC = { 'anthropic-version': '2023-06-01' };
/** the header @google/genai sends: on the shared `/v1/models` it selects Gemini's dialect (the bearer key still wins) */
const GEMINI = { 'x-goog-api-key': 'sk-gemini-dialect' };

/**
 * What the generated requests of a route start from: a valid body, the headers it needs, a path with the query
 * parameters worth mutating when the documented ones are not. Routes without an entry are driven with no body.
 */
export const SAMPLES: Sample[] = [
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
  // rerank and moderation
  {
    name: 'rerank:cohere',
    route: 'post /v2/rerank',
    valid: { model: 'sim-rerank', query: 'blue sky', documents: ['the blue sky', 'green grass'] },
  },
  {
    name: 'rerank',
    route: 'post /v1/rerank',
    valid: { model: 'sim-rerank', query: 'blue sky', documents: [{ text: 'the blue sky' }, 'green grass'], return_documents: true },
  },
  { name: 'moderations', route: 'post /v1/moderations', valid: { model: 'sim-moderation', input: ['hello', 'kill'] } },
  {
    name: 'mcp',
    route: 'post /mcp',
    valid: {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' }, name: 'sim__echo', arguments: { text: 'hi' } },
    },
  },
  // audio (transcriptions and translations are multipart: driven with hostile JSON and raw bodies only)
  { name: 'speech', route: 'post /v1/audio/speech', valid: { model: 'sim-speech', input: 'hi', voice: 'alloy', response_format: 'pcm' } },
  // embeddings
  { name: 'embeddings', route: 'post /v1/embeddings', valid: { model: 'sim-embed', input: ['hello', 'world'], encoding_format: 'base64' } },
  { name: 'embedContent', route: 'post /v1beta/models/{model}:embedContent', valid: { content: { parts: [{ text: 'hi' }] } } },
  {
    name: 'batchEmbedContents',
    route: 'post /v1beta/models/{model}:batchEmbedContents',
    valid: { requests: [{ content: { parts: [{ text: 'hi' }] }, outputDimensionality: 8 }] },
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
  { name: 'models:gemini', path: '/v1/models?pageToken={id}&pageSize={id}', route: 'get /v1/models', shape: 'google', headers: GEMINI },
  { name: 'model:gemini', route: 'get /v1/models/{id}', shape: 'google', headers: GEMINI },
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
  // webhooks
  {
    name: 'webhooks:create',
    route: 'post /v1/webhook_endpoints',
    valid: { url: 'https://hooks.example.com/fuzz', events: ['video.completed'] },
  },
  {
    name: 'admin:webhooks:create',
    route: 'post /admin/accounts/{account}/webhook_endpoints',
    valid: { url: 'https://hooks.example.com/fuzz' },
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
  { name: 'admin:account:update', route: 'patch /admin/accounts/{id}', valid: { name: 'fuzz' }, creates: 'config' },
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
  { name: 'admin:audit', path: '/admin/audit?actor={id}&action={id}&from={id}&limit={id}&export={id}', route: 'get /admin/audit' },
  // self-service (an account admin's key)
  { name: 'self:keys:create', route: 'post /v1/keys', valid: { name: 'fuzz', budget: { credit_limit: 1 } }, creates: 'config' },
  { name: 'self:keys:update', route: 'patch /v1/keys/{id}', valid: { name: 'fuzz' }, creates: 'config' },
  { name: 'self:keys:rotate', route: 'post /v1/keys/{id}/rotate', valid: { grace_seconds: 10 }, creates: 'config' },
  { name: 'self:keys:revoke', route: 'delete /v1/keys/{id}', creates: 'config' },
  { name: 'self:audit', path: '/v1/audit?target={id}&to={id}&limit={id}', route: 'get /v1/audit' },
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

// @google/genai 3.x calls /v1: every Gemini route's samples again under it (the list and one model are shared, above)
SAMPLES.push(
  ...SAMPLES.filter((s) => / \/v1beta\/(models\/\{model\}[:/]|files\/)/.test(s.route)).map((s) => ({
    ...s,
    name: `${s.name}@v1`,
    route: s.route.replace(' /v1beta/', ' /v1/'),
    ...(s.path ? { path: s.path.replace(/^\/v1beta\//, '/v1/') } : {}),
  })),
);
