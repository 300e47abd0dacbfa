import { chunksOf, DEFAULT_USAGE, type FakeReply, type RecordedRequest } from './fake-script';
import { finishOf, lastUserText, sse, type FakeDialect, type FakeRoute } from './fake-dialect';

const STOP = { stop: 'end_turn', length: 'max_tokens', 'tool-calls': 'tool_use', 'content-filter': 'refusal' } as const;

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  504: 'timeout_error',
  529: 'overloaded_error',
};

type Block = {
  type: string;
  text?: string;
  thinking?: string;
  signature?: string;
  id?: string;
  name?: string;
  input?: Record<string, unknown>;
};

function blocks(reply: FakeReply): Block[] {
  return [
    ...(reply.reasoning ? [{ type: 'thinking', thinking: reply.reasoning.text, signature: reply.reasoning.signature ?? 'sig-fake' }] : []),
    ...(reply.text !== undefined ? [{ type: 'text', text: reply.text }] : []),
    ...(reply.toolCalls ?? []).map((c, i) => ({ type: 'tool_use', id: c.id ?? `toolu_fake${i}`, name: c.name, input: c.arguments })),
  ];
}

/** The Messages API as api.anthropic.com speaks it: `event:` lines, a ping, cumulative usage in message_delta. */
export const anthropicMessagesDialect: FakeDialect = {
  name: 'anthropic',
  basePath: '',
  requestIdHeader: 'request-id',

  route(method, path, req): FakeRoute | null {
    if (method === 'POST' && path === '/v1/messages/count_tokens')
      return { model: String(req.body?.model ?? ''), stream: false, count: true };
    if (method !== 'POST' || path !== '/v1/messages') return null;
    return { model: String(req.body?.model ?? ''), stream: req.body?.stream === true };
  },

  checkAuth(headers, apiKey) {
    if (headers['x-api-key'] !== apiKey && headers.authorization !== `Bearer ${apiKey}`)
      return { status: 401, message: 'invalid x-api-key' };
    if (!headers['anthropic-version']) return { status: 400, message: 'anthropic-version: header is required' };
    return null;
  },

  errorBody(status, message) {
    return { type: 'error', error: { type: ERROR_TYPES[status] ?? 'api_error', message }, request_id: 'req_fake0001' };
  },

  /** Whitespace-separated words of the system prompt and every text block, as the fake's own "tokenizer". */
  countTokens(req: RecordedRequest) {
    const texts: string[] = [];
    const walk = (v: unknown): void => {
      if (typeof v === 'string') texts.push(v);
      else if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === 'object')
        for (const [k, x] of Object.entries(v)) if (k === 'text' || k === 'content' || k === 'system') walk(x);
    };
    walk(req.body?.system);
    walk(req.body?.messages);
    return { input_tokens: texts.join(' ').split(/\s+/).filter(Boolean).length };
  },

  defaultReply(req: RecordedRequest): FakeReply {
    return { text: `fake-anthropic says: ${lastUserText(req.body?.messages)}` };
  },

  json(reply, route) {
    const u = reply.usage ?? DEFAULT_USAGE;
    return {
      id: 'msg_fake0001',
      type: 'message',
      role: 'assistant',
      model: route.model,
      content: blocks(reply),
      stop_reason: STOP[finishOf(reply)],
      stop_sequence: null,
      usage: {
        input_tokens: u.input - (u.cached ?? 0) - (u.cacheWrite ?? 0),
        output_tokens: u.output,
        cache_creation_input_tokens: u.cacheWrite ?? 0,
        cache_read_input_tokens: u.cached ?? 0,
        service_tier: 'standard',
      },
    };
  },

  frames(reply, route) {
    const u = reply.usage ?? DEFAULT_USAGE;
    const out = [
      sse(
        {
          type: 'message_start',
          message: {
            id: 'msg_fake0001',
            type: 'message',
            role: 'assistant',
            model: route.model,
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: {
              input_tokens: u.input - (u.cached ?? 0) - (u.cacheWrite ?? 0),
              output_tokens: 1,
              cache_creation_input_tokens: u.cacheWrite ?? 0,
              cache_read_input_tokens: u.cached ?? 0,
              service_tier: 'standard',
            },
          },
        },
        'message_start',
      ),
    ];
    blocks(reply).forEach((b, index) => {
      const start =
        b.type === 'text'
          ? { type: 'text', text: '' }
          : b.type === 'thinking'
            ? { type: 'thinking', thinking: '', signature: '' }
            : { ...b, input: {} };
      out.push(sse({ type: 'content_block_start', index, content_block: start }, 'content_block_start'));
      if (index === 0) out.push(sse({ type: 'ping' }, 'ping'));
      const delta = (d: object) => out.push(sse({ type: 'content_block_delta', index, delta: d }, 'content_block_delta'));
      if (b.type === 'text') for (const t of chunksOf(b.text as string)) delta({ type: 'text_delta', text: t });
      else if (b.type === 'thinking') {
        for (const t of chunksOf(b.thinking as string)) delta({ type: 'thinking_delta', thinking: t });
        delta({ type: 'signature_delta', signature: b.signature });
      } else for (const a of chunksOf(JSON.stringify(b.input), 2)) delta({ type: 'input_json_delta', partial_json: a });
      out.push(sse({ type: 'content_block_stop', index }, 'content_block_stop'));
    });
    out.push(
      sse(
        { type: 'message_delta', delta: { stop_reason: STOP[finishOf(reply)], stop_sequence: null }, usage: { output_tokens: u.output } },
        'message_delta',
      ),
    );
    out.push(sse({ type: 'message_stop' }, 'message_stop'));
    return out;
  },

  streamErrorFrame(message) {
    return sse({ type: 'error', error: { type: 'overloaded_error', message } }, 'error');
  },
};
