/**
 * A fake OpenAI moderations upstream, after the API reference (openai-openapi 2.3.0 `CreateModerationRequest`):
 * `POST /v1/moderations` with `input` a string, strings, or text and image_url parts; an answer per input with the
 * 13 categories. It flags `violence` when a text says "attack"; `text-moderation-*` models are refused, as OpenAI
 * now does. Errors in OpenAI's shape.
 */
import { readJson, sendJson, startFakeHttp, type FakeHttpRequest, type FakeHttpServer } from '@gateway/testkit';

export interface FakeOpenAiModerations {
  /** baseUrl as the openai SDK takes it: ends in /v1 */
  url: string;
  apiKey: string;
  api: FakeHttpServer;
  bodies(): Record<string, unknown>[];
  close(): Promise<void>;
}

const CATEGORIES = [
  'hate',
  'hate/threatening',
  'harassment',
  'harassment/threatening',
  'illicit',
  'illicit/violent',
  'self-harm',
  'self-harm/intent',
  'self-harm/instructions',
  'sexual',
  'sexual/minors',
  'violence',
  'violence/graphic',
];

const errorBody = (status: number, message: string) => ({
  error: {
    message,
    type: status === 401 ? 'invalid_request_error' : 'invalid_request_error',
    param: null,
    code: status === 401 ? 'invalid_api_key' : null,
  },
});

type Part = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

function result(parts: Part[]) {
  const text = parts.map((p) => (p.type === 'text' ? p.text : '')).join(' ');
  const types = (c: string) => [
    ...(parts.some((p) => p.type === 'text') ? ['text'] : []),
    ...(parts.some((p) => p.type === 'image_url') && c.startsWith('violence') ? ['image'] : []),
  ];
  const violent = /\battack\b/i.test(text);
  return {
    flagged: violent,
    categories: Object.fromEntries(CATEGORIES.map((c) => [c, violent && c === 'violence'])),
    category_scores: Object.fromEntries(CATEGORIES.map((c) => [c, violent && c === 'violence' ? 0.87 : 0.00002])),
    category_applied_input_types: Object.fromEntries(CATEGORIES.map((c) => [c, types(c)])),
  };
}

function moderate(r: FakeHttpRequest, res: Parameters<typeof sendJson>[0]) {
  const b = readJson(r);
  const model = typeof b?.model === 'string' ? b.model : 'omni-moderation-latest';
  if (model.startsWith('text-moderation'))
    return sendJson(res, 400, errorBody(400, 'text-moderation models are deprecated; use omni-moderation-latest.'));
  const input = b?.input;
  let inputs: Part[][];
  if (typeof input === 'string') inputs = [[{ type: 'text', text: input }]];
  else if (Array.isArray(input) && input.every((i) => typeof i === 'string'))
    inputs = input.map((text: string) => [{ type: 'text', text }]);
  else if (Array.isArray(input) && input.length > 0) inputs = [input as Part[]];
  else return sendJson(res, 400, errorBody(400, "'input' is a required property"));
  sendJson(
    res,
    200,
    { id: `modr-fake-${inputs.length}`, model: `${model}-2024-09-26`, results: inputs.map(result) },
    { 'x-request-id': 'req_fake_mod' },
  );
}

export async function startFakeOpenAiModerations(opts: { apiKey?: string } = {}): Promise<FakeOpenAiModerations> {
  const apiKey = opts.apiKey ?? 'sk-fake-moderations-0001';
  const api = await startFakeHttp(
    [
      {
        kind: 'create',
        method: 'POST',
        pattern: /^\/v1\/moderations$/,
        handle: (r, res) =>
          r.headers.authorization === `Bearer ${apiKey}`
            ? moderate(r, res)
            : sendJson(res, 401, errorBody(401, 'Incorrect API key provided.')),
      },
    ],
    errorBody,
  );
  return {
    url: `${api.origin}/v1`,
    apiKey,
    api,
    bodies: () => api.requests.map((r) => readJson(r) ?? {}),
    close: () => api.close(),
  };
}
