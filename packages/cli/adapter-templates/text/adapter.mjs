/* global fetch */
// An outside adapter for the gateway (adapter contract 1.x, docs/providers/writing-an-adapter.md).
// It speaks the example "acme" dialect of fake-upstream.mjs: replace the request and answer mapping with your
// upstream's. It imports nothing: the gateway hands it `env.kit` (errors from the closed table, SSE parsing).

const FINISH = { end: 'stop', max_tokens: 'length', tool_use: 'tool-calls' };

/** canonical messages (the gateway's TextRequest) → the upstream's */
function toUpstream(req, stream) {
  const messages = [];
  if (req.system) messages.push({ role: 'system', content: req.system });
  for (const m of req.messages) {
    if (m.role === 'tool') {
      for (const r of m.content)
        messages.push({ role: 'tool', tool_call_id: r.toolCallId, content: r.content.map((c) => c.text ?? '').join('') });
      continue;
    }
    const text = m.content
      .filter((c) => c.type === 'text')
      .map((c) => c.text)
      .join('');
    const images = m.content.filter((c) => c.type === 'image').map((c) => c.data ?? c.url);
    const calls = m.content
      .filter((c) => c.type === 'tool-call')
      .map((c) => ({ id: c.id, name: c.name, arguments: JSON.parse(c.arguments || '{}') }));
    messages.push({ role: m.role, content: text, ...(images.length ? { images } : {}), ...(calls.length ? { tool_calls: calls } : {}) });
  }
  return {
    model: req.model,
    messages,
    ...(req.tools?.length ? { tools: req.tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters })) } : {}),
    ...(req.maxOutputTokens ? { max_tokens: req.maxOutputTokens } : {}),
    stream,
  };
}

function usageOf(u, kit) {
  if (!u || !Number.isInteger(u.input_tokens) || !Number.isInteger(u.output_tokens)) throw kit.malformed('an answer without usage');
  return { inputTokens: u.input_tokens, outputTokens: u.output_tokens, totalTokens: u.input_tokens + u.output_tokens };
}

function finishOf(stop, kit) {
  const reason = FINISH[stop];
  if (!reason) throw kit.malformed(`an unknown stop reason`);
  return reason;
}

export default {
  contractVersion: '1.0.0',
  name: 'acme',
  optionsSchema: {
    type: 'object',
    required: ['baseUrl'],
    additionalProperties: false,
    properties: {
      baseUrl: { type: 'string', pattern: '^https?://' },
    },
  },

  create(entry, env) {
    const { kit } = env;
    const baseUrl = entry.options.baseUrl.replace(/\/$/, '');
    // the entry's apiKey: sealed in the store, never shown by the admin API, redacted from every answer
    const apiKey = entry.apiKey;

    async function call(req, ctx, stream) {
      let res;
      try {
        res = await fetch(`${baseUrl}/v1/generate`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
          body: JSON.stringify(toUpstream(req, stream)),
          signal: ctx.signal,
          redirect: 'manual',
        });
      } catch {
        throw kit.error('upstream_unavailable', 'The upstream provider could not be reached.');
      }
      if (!res.ok) {
        const body = await res.json().catch(() => ({}));
        throw kit.statusError(res.status, body?.error?.message, {
          retryAfter: res.headers.get('retry-after'),
          requestId: res.headers.get('x-request-id') ?? undefined,
        });
      }
      return res;
    }

    const text = {
      async generate(req, ctx) {
        const res = await call(req, ctx, false);
        const body = await res.json().catch(() => {
          throw kit.malformed('an answer that is not JSON');
        });
        if (!body || !Array.isArray(body.output)) throw kit.malformed('an answer without output');
        const content = body.output.map((o) => {
          if (o?.type === 'text' && typeof o.text === 'string') return { type: 'text', text: o.text };
          if (o?.type === 'tool_call' && typeof o.name === 'string')
            return { type: 'tool-call', id: String(o.id), name: o.name, arguments: JSON.stringify(o.arguments ?? {}) };
          throw kit.malformed('an output item of an unknown type');
        });
        return {
          id: body.id,
          model: typeof body.model === 'string' ? body.model : req.model,
          content,
          finishReason: finishOf(body.stop, kit),
          usage: usageOf(body.usage, kit),
          warnings: [],
          upstreamRequestId: res.headers.get('x-request-id') ?? undefined,
        };
      },

      async *stream(req, ctx) {
        const res = await call(req, ctx, true);
        const requestId = res.headers.get('x-request-id') ?? undefined;
        let tools = 0;
        for await (const ev of kit.parseSse(res.body)) {
          let data;
          try {
            data = JSON.parse(ev.data);
          } catch {
            throw kit.malformed('a stream event that is not JSON');
          }
          if (data.type === 'delta' && typeof data.text === 'string') yield { type: 'text-delta', delta: data.text };
          else if (data.type === 'tool_call' && typeof data.name === 'string') {
            const index = tools++;
            yield { type: 'tool-call-start', index, id: String(data.id), name: data.name };
            yield { type: 'tool-call-delta', index, argumentsDelta: JSON.stringify(data.arguments ?? {}) };
          } else if (data.type === 'done') {
            yield { type: 'finish', finishReason: finishOf(data.stop, kit), usage: usageOf(data.usage, kit), upstreamRequestId: requestId };
            return;
          } else if (data.type === 'error') throw kit.error('upstream_unavailable', 'The upstream provider failed mid-stream.');
          else throw kit.malformed('a stream event of an unknown type');
        }
        throw kit.error('upstream_unavailable', 'The upstream stream ended before its end event.', { code: 'upstream_stream_truncated' });
      },
    };

    // fetch keeps no sockets of ours to close
    return { text, close() {}, drain() {} };
  },
};
