/* global fetch */
// A hand-written outside adapter for Ollama's native chat API (POST /api/chat, NDJSON streaming), from Ollama's
// public API reference: a dialect none of the gateway's built-ins speaks. Adapter contract 1.x; it imports nothing.

const FINISH = { stop: 'stop', length: 'length' };

function toOllama(req, stream) {
  const messages = [];
  if (req.system) messages.push({ role: 'system', content: req.system });
  for (const m of req.messages) {
    if (m.role === 'tool') {
      for (const r of m.content)
        messages.push({ role: 'tool', content: r.content.map((c) => c.text ?? '').join(''), ...(r.name ? { tool_name: r.name } : {}) });
      continue;
    }
    const content = m.content
      .filter((c) => c.type === 'text')
      .map((c) => c.text)
      .join('');
    const images = m.content.filter((c) => c.type === 'image' && c.data).map((c) => c.data);
    const calls = m.content
      .filter((c) => c.type === 'tool-call')
      .map((c) => ({ function: { name: c.name, arguments: JSON.parse(c.arguments || '{}') } }));
    messages.push({ role: m.role, content, ...(images.length ? { images } : {}), ...(calls.length ? { tool_calls: calls } : {}) });
  }
  const options = {
    ...(req.maxOutputTokens ? { num_predict: req.maxOutputTokens } : {}),
    ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
  };
  return {
    model: req.model,
    messages,
    stream,
    ...(req.tools?.length
      ? {
          tools: req.tools.map((t) => ({
            type: 'function',
            function: { name: t.name, description: t.description, parameters: t.parameters },
          })),
        }
      : {}),
    ...(Object.keys(options).length ? { options } : {}),
  };
}

function usageOf(body, kit) {
  const input = body.prompt_eval_count ?? 0;
  const output = body.eval_count;
  if (!Number.isInteger(input) || !Number.isInteger(output)) throw kit.malformed('a final answer without eval counts');
  return { inputTokens: input, outputTokens: output, totalTokens: input + output };
}

function toolCallsOf(message, kit) {
  const calls = message.tool_calls ?? [];
  if (!Array.isArray(calls)) throw kit.malformed('tool_calls that are not a list');
  return calls.map((c, i) => {
    if (typeof c?.function?.name !== 'string') throw kit.malformed('a tool call without a name');
    // Ollama gives tool calls no id: the conversation's next turn matches them by position
    return { type: 'tool-call', id: `call_${i}`, name: c.function.name, arguments: JSON.stringify(c.function.arguments ?? {}) };
  });
}

const finishOf = (body, tools) => (tools ? 'tool-calls' : (FINISH[body.done_reason] ?? 'stop'));

export default {
  contractVersion: '1.0.0',
  name: 'ollama',
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

    async function chat(req, ctx, stream) {
      let res;
      try {
        res = await fetch(`${baseUrl}/api/chat`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
          body: JSON.stringify(toOllama(req, stream)),
          signal: ctx.signal,
          redirect: 'manual',
        });
      } catch {
        throw kit.error('upstream_unavailable', 'Ollama could not be reached.');
      }
      if (!res.ok) {
        const body = await res.json().catch(() => ({}));
        throw kit.statusError(res.status, typeof body?.error === 'string' ? body.error : undefined, {
          retryAfter: res.headers.get('retry-after'),
        });
      }
      return res;
    }

    const text = {
      async generate(req, ctx) {
        const res = await chat(req, ctx, false);
        const body = await res.json().catch(() => {
          throw kit.malformed('an answer that is not JSON');
        });
        if (typeof body?.message?.content !== 'string') throw kit.malformed('an answer without a message');
        const tools = toolCallsOf(body.message, kit);
        return {
          model: typeof body.model === 'string' ? body.model : req.model,
          content: [...(body.message.content ? [{ type: 'text', text: body.message.content }] : []), ...tools],
          finishReason: finishOf(body, tools.length > 0),
          usage: usageOf(body, kit),
          warnings: [],
        };
      },

      async *stream(req, ctx) {
        const res = await chat(req, ctx, true);
        let tools = 0;
        for await (const line of kit.parseNdjson(res.body)) {
          if (typeof line?.error === 'string') throw kit.error('upstream_unavailable', 'Ollama failed mid-stream.');
          if (typeof line?.message?.content !== 'string' && !line?.done) throw kit.malformed('a stream line without a message');
          if (line.message?.content) yield { type: 'text-delta', delta: line.message.content };
          for (const call of toolCallsOf(line.message ?? {}, kit)) {
            const index = tools++;
            yield { type: 'tool-call-start', index, id: `call_${index}`, name: call.name };
            yield { type: 'tool-call-delta', index, argumentsDelta: call.arguments };
          }
          if (line.done) {
            yield { type: 'finish', finishReason: finishOf(line, tools > 0), usage: usageOf(line, kit) };
            return;
          }
        }
        throw kit.error('upstream_unavailable', 'The Ollama stream ended before its done line.', { code: 'upstream_stream_truncated' });
      },
    };
    return { text, close() {}, drain() {} };
  },
};
