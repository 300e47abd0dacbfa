import { chunksOf, DEFAULT_USAGE, type FakeReply, type RecordedRequest } from './fake-script';
import { finishOf, lastUserText, sse, type FakeDialect, type FakeRoute } from './fake-dialect';

const FINISH = { stop: 'stop', length: 'length', 'tool-calls': 'tool_calls', 'content-filter': 'content_filter' } as const;

/** OpenAI's `{error:{message,type,param,code}}`, with the type and code the API uses for each status. */
const ERRORS: Record<number, { type: string; code: string | null }> = {
  400: { type: 'invalid_request_error', code: null },
  401: { type: 'invalid_request_error', code: 'invalid_api_key' },
  403: { type: 'invalid_request_error', code: 'unsupported_country_region_territory' },
  404: { type: 'invalid_request_error', code: 'model_not_found' },
  429: { type: 'requests', code: 'rate_limit_exceeded' },
  500: { type: 'server_error', code: null },
  503: { type: 'server_error', code: null },
};

function usage(reply: FakeReply) {
  const u = reply.usage ?? DEFAULT_USAGE;
  return {
    prompt_tokens: u.input,
    completion_tokens: u.output,
    total_tokens: u.input + u.output,
    prompt_tokens_details: { cached_tokens: u.cached ?? 0, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: u.reasoning ?? 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

/** Chat completions as api.openai.com speaks it (reasoning_content as DeepSeek-style servers add it). */
export const openAiChatDialect: FakeDialect = {
  name: 'openai',
  basePath: '/v1',
  requestIdHeader: 'x-request-id',

  route(method, path, req): FakeRoute | null {
    if (method !== 'POST' || path !== '/v1/chat/completions') return null;
    return { model: String(req.body?.model ?? ''), stream: req.body?.stream === true };
  },

  checkAuth(headers, apiKey) {
    if (headers.authorization === `Bearer ${apiKey}`) return null;
    return {
      status: 401,
      message: `Incorrect API key provided: ${String(headers.authorization ?? '').slice(7, 12)}***. You can find your API key at https://platform.openai.com/account/api-keys.`,
    };
  },

  errorBody(status, message) {
    const e = ERRORS[status] ?? { type: status >= 500 ? 'server_error' : 'invalid_request_error', code: null };
    return { error: { message, type: e.type, param: null, code: e.code } };
  },

  defaultReply(req: RecordedRequest): FakeReply {
    return { text: `fake-openai says: ${lastUserText(req.body?.messages)}` };
  },

  json(reply, route) {
    const calls = reply.toolCalls ?? [];
    return {
      id: 'chatcmpl-fake0001',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: route.model,
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: reply.text ?? null,
            refusal: null,
            ...(reply.reasoning ? { reasoning_content: reply.reasoning.text } : {}),
            ...(calls.length
              ? {
                  tool_calls: calls.map((c, i) => ({
                    id: c.id ?? `call_fake${i}`,
                    type: 'function',
                    function: { name: c.name, arguments: JSON.stringify(c.arguments) },
                  })),
                }
              : {}),
          },
          logprobs: null,
          finish_reason: FINISH[finishOf(reply)],
        },
      ],
      usage: usage(reply),
      system_fingerprint: 'fp_fake',
    };
  },

  frames(reply, route, req) {
    const base = {
      id: 'chatcmpl-fake0001',
      object: 'chat.completion.chunk',
      created: 1_700_000_000,
      model: route.model,
      system_fingerprint: 'fp_fake',
    };
    const withUsage = req.body?.stream_options?.include_usage === true;
    const chunk = (delta: object, finish: string | null = null) =>
      sse({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], ...(withUsage ? { usage: null } : {}) });
    const out = [chunk({ role: 'assistant', content: '', refusal: null })];
    for (const r of chunksOf(reply.reasoning?.text ?? '')) out.push(chunk({ reasoning_content: r }));
    for (const t of chunksOf(reply.text ?? '')) out.push(chunk({ content: t }));
    (reply.toolCalls ?? []).forEach((c, index) => {
      out.push(
        chunk({ tool_calls: [{ index, id: c.id ?? `call_fake${index}`, type: 'function', function: { name: c.name, arguments: '' } }] }),
      );
      for (const a of chunksOf(JSON.stringify(c.arguments), 2)) out.push(chunk({ tool_calls: [{ index, function: { arguments: a } }] }));
    });
    out.push(chunk({}, FINISH[finishOf(reply)]));
    if (withUsage) out.push(sse({ ...base, choices: [], usage: usage(reply) }));
    out.push(sse('[DONE]'));
    return out;
  },

  streamErrorFrame(message) {
    return sse({ error: { message, type: 'server_error', param: null, code: null } });
  },
};
