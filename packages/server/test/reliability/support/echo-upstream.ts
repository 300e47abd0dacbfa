/**
 * A hostile upstream for the secrets tests: it speaks OpenAI chat and responses, Anthropic messages and Gemini on one
 * port and copies the credential it received into every field it controls (ids, model names, request-id
 * headers, error messages, types and codes, in-stream error events), whole, truncated, upper-cased,
 * base64- and URL-encoded. The upstream model name chooses the answer: `ok`, `e400`, `e401`, `e500`,
 * `stream-error`. Generated text is always ECHO_CONTENT, which must reach the client unchanged.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export const ECHO_CONTENT = 'Upstream-secret words stay: the model said exactly this.';
export const ECHO_MODES = ['ok', 'e400', 'e401', 'e500', 'stream-error'] as const;
export type EchoMode = (typeof ECHO_MODES)[number];

/** Every spelling of the key an upstream might quote. */
export function spellingsOf(key: string): string {
  return [
    key,
    key.toUpperCase(),
    `${key.slice(0, 8)}****${key.slice(-4)}`,
    Buffer.from(key).toString('base64'),
    Buffer.from(`Bearer ${key}`).toString('base64url'),
    encodeURIComponent(`${key}/`),
  ].join(' ');
}

function credentialOf(req: http.IncomingMessage, url: URL): string {
  const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
  return bearer ?? String(req.headers['x-api-key'] ?? req.headers['x-goog-api-key'] ?? url.searchParams.get('key') ?? 'none');
}

const sse = (data: unknown, event?: string) => `${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`;

function openai(mode: EchoMode, k: string, s: string, stream: boolean): { status: number; body: string; sse?: boolean } {
  const err = (status: number) => ({ status, body: JSON.stringify({ error: { message: s, type: k, code: k, param: k } }) });
  if (mode === 'e400') return err(400);
  if (mode === 'e401') return err(401);
  if (mode === 'e500') return err(500);
  const usage = { prompt_tokens: 3, completion_tokens: 5, total_tokens: 8 };
  if (!stream)
    return {
      status: 200,
      body: JSON.stringify({
        id: `chatcmpl-${k}`,
        object: 'chat.completion',
        created: 1,
        model: k,
        system_fingerprint: k,
        choices: [{ index: 0, message: { role: 'assistant', content: ECHO_CONTENT }, finish_reason: 'stop' }],
        usage,
      }),
    };
  const chunk = (delta: object, finish: string | null, extra = {}) =>
    sse({
      id: `chatcmpl-${k}`,
      object: 'chat.completion.chunk',
      created: 1,
      model: k,
      choices: [{ index: 0, delta, finish_reason: finish }],
      ...extra,
    });
  const head = chunk({ role: 'assistant', content: ECHO_CONTENT }, null);
  if (mode === 'stream-error')
    return { status: 200, sse: true, body: head + sse({ error: { message: s, type: 'invalid_request_error', code: k } }) };
  return { status: 200, sse: true, body: head + chunk({}, 'stop', { usage }) + 'data: [DONE]\n\n' };
}

function anthropic(mode: EchoMode, k: string, s: string, stream: boolean): { status: number; body: string; sse?: boolean } {
  const err = (status: number) => ({
    status,
    body: JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: s } }),
  });
  if (mode === 'e400') return err(400);
  if (mode === 'e401') return err(401);
  if (mode === 'e500') return err(500);
  const message = { id: `msg_${k}`, type: 'message', role: 'assistant', model: k, stop_sequence: null };
  if (!stream)
    return {
      status: 200,
      body: JSON.stringify({
        ...message,
        content: [{ type: 'text', text: ECHO_CONTENT }],
        stop_reason: 'end_turn',
        usage: { input_tokens: 3, output_tokens: 5 },
      }),
    };
  const head =
    sse(
      { type: 'message_start', message: { ...message, content: [], stop_reason: null, usage: { input_tokens: 3, output_tokens: 1 } } },
      'message_start',
    ) +
    sse({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }, 'content_block_start') +
    sse({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: ECHO_CONTENT } }, 'content_block_delta');
  if (mode === 'stream-error')
    return { status: 200, sse: true, body: head + sse({ type: 'error', error: { type: 'invalid_request_error', message: s } }, 'error') };
  return {
    status: 200,
    sse: true,
    body:
      head +
      sse({ type: 'content_block_stop', index: 0 }, 'content_block_stop') +
      sse(
        { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 5 } },
        'message_delta',
      ) +
      sse({ type: 'message_stop' }, 'message_stop'),
  };
}

function gemini(mode: EchoMode, k: string, s: string, stream: boolean): { status: number; body: string; sse?: boolean } {
  const err = (code: number) => ({
    status: code,
    body: JSON.stringify({ error: { code, message: s, status: 'INVALID_ARGUMENT', details: [{ reason: k }] } }),
  });
  if (mode === 'e400') return err(400);
  if (mode === 'e401') return err(401);
  if (mode === 'e500') return err(500);
  const answer = {
    candidates: [{ content: { role: 'model', parts: [{ text: ECHO_CONTENT }] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 5, totalTokenCount: 8 },
    modelVersion: k,
    responseId: k,
  };
  if (!stream) return { status: 200, body: JSON.stringify(answer) };
  if (mode === 'stream-error')
    return {
      status: 200,
      sse: true,
      body:
        sse({ candidates: [{ content: { role: 'model', parts: [{ text: ECHO_CONTENT }] }, index: 0 }], modelVersion: k, responseId: k }) +
        sse({ error: { code: 400, message: s, status: 'INVALID_ARGUMENT' } }),
    };
  return { status: 200, sse: true, body: sse(answer) };
}

/** OpenAI's Responses API: the key in every id, the model, the status and every error field. */
function responses(mode: EchoMode, k: string, s: string, stream: boolean): { status: number; body: string; sse?: boolean } {
  const err = (status: number) => ({ status, body: JSON.stringify({ error: { message: s, type: k, code: k, param: k } }) });
  if (mode === 'e400') return err(400);
  if (mode === 'e401') return err(401);
  if (mode === 'e500') return err(500);
  const part = { type: 'output_text', text: ECHO_CONTENT, annotations: [] };
  const item = { type: 'message', id: k, role: 'assistant', status: 'completed', content: [part] };
  const response = (status: string, output: unknown[]) => ({
    id: k,
    object: 'response',
    created_at: 1,
    model: k,
    status,
    output,
    usage: { input_tokens: 3, output_tokens: 5, total_tokens: 8 },
    metadata: { note: s },
  });
  if (!stream) return { status: 200, body: JSON.stringify(response('completed', [item])) };
  const head =
    sse({ type: 'response.created', sequence_number: 0, response: response('in_progress', []) }, 'response.created') +
    sse(
      { type: 'response.output_item.added', sequence_number: 1, output_index: 0, item: { ...item, status: 'in_progress', content: [] } },
      'response.output_item.added',
    ) +
    sse(
      {
        type: 'response.content_part.added',
        sequence_number: 2,
        item_id: k,
        output_index: 0,
        content_index: 0,
        part: { ...part, text: '' },
      },
      'response.content_part.added',
    ) +
    sse(
      { type: 'response.output_text.delta', sequence_number: 3, item_id: k, output_index: 0, content_index: 0, delta: ECHO_CONTENT },
      'response.output_text.delta',
    );
  if (mode === 'stream-error')
    return { status: 200, sse: true, body: head + sse({ type: 'error', sequence_number: 4, code: k, message: s, param: k }, 'error') };
  return {
    status: 200,
    sse: true,
    body:
      head +
      sse(
        { type: 'response.output_text.done', sequence_number: 4, item_id: k, output_index: 0, content_index: 0, text: ECHO_CONTENT },
        'response.output_text.done',
      ) +
      sse({ type: 'response.output_item.done', sequence_number: 5, output_index: 0, item }, 'response.output_item.done') +
      sse({ type: 'response.completed', sequence_number: 6, response: response('completed', [item]) }, 'response.completed'),
  };
}

export interface EchoUpstream {
  url: string;
  /** credentials the upstream received (to prove the gateway really sent each provider's key) */
  seen: Set<string>;
  close(): Promise<void>;
}

export async function startEchoUpstream(): Promise<EchoUpstream> {
  const seen = new Set<string>();
  const serve = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const k = credentialOf(req, url);
    seen.add(k);
    const s = `rejected credential ${spellingsOf(k)}`;
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      // a body-less request
    }
    const gem = /\/models\/([^/:]+):(generateContent|streamGenerateContent)/.exec(url.pathname);
    const model = String(gem?.[1] ?? body.model ?? 'ok') as EchoMode;
    const mode = (ECHO_MODES as readonly string[]).includes(model) ? model : 'ok';
    const answer = gem
      ? gemini(mode, k, s, gem[2] === 'streamGenerateContent')
      : url.pathname.endsWith('/messages')
        ? anthropic(mode, k, s, body.stream === true)
        : url.pathname.endsWith('/responses')
          ? responses(mode, k, s, body.stream === true)
          : openai(mode, k, s, body.stream === true);
    res.writeHead(answer.status, {
      'content-type': answer.sse ? 'text/event-stream' : 'application/json',
      'x-request-id': k,
      'request-id': k,
      'x-goog-request-id': k,
      'openai-organization': k,
    });
    res.end(answer.body);
  };
  // a throw in this fake is a bug: left unhandled, as before, so the test run reports it
  const server = http.createServer((req, res) => void serve(req, res));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
