import http from 'node:http';
import { errorShapeProblem, type ErrorShape } from '../../fuzz/endpoints';
import { googleErrorParts } from '@gateway/wire-gemini-content';

/** The four text formats as a client sends them (plain HTTP, so faults show as they are on the wire). */
export type TextFormat = 'chat' | 'messages' | 'responses' | 'gemini';
export const TEXT_FORMATS: TextFormat[] = ['chat', 'messages', 'responses', 'gemini'];

export const SHAPE: Record<TextFormat, ErrorShape> = { chat: 'openai', messages: 'anthropic', responses: 'openai', gemini: 'google' };

export interface TextCall {
  path: string;
  headers: Record<string, string>;
  body: string;
}

export function textCall(format: TextFormat, key: string, model: string, stream: boolean, prompt = 'hello there'): TextCall {
  const headers: Record<string, string> = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  switch (format) {
    case 'chat':
      return {
        path: '/v1/chat/completions',
        headers,
        body: JSON.stringify({ model, stream, messages: [{ role: 'user', content: prompt }] }),
      };
    case 'messages':
      return {
        path: '/v1/messages',
        headers: { ...headers, 'anthropic-version': '2023-06-01' },
        body: JSON.stringify({ model, stream, max_tokens: 64, messages: [{ role: 'user', content: prompt }] }),
      };
    case 'responses':
      return { path: '/v1/responses', headers, body: JSON.stringify({ model, stream, input: prompt }) };
    case 'gemini':
      return {
        path: `/v1beta/models/${model}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`,
        headers,
        body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: prompt }] }] }),
      };
  }
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** how long the whole answer took, body included */
  ms: number;
}

/** One call with a client-side deadline: a hung request fails the test instead of hanging it. */
export async function send(baseUrl: string, call: TextCall, deadlineMs = 8000): Promise<Answer> {
  const started = Date.now();
  const res = await fetch(baseUrl + call.path, {
    method: 'POST',
    headers: call.headers,
    body: call.body,
    signal: AbortSignal.timeout(deadlineMs),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, ms: Date.now() - started };
}

/** The SSE events of a body: `{event, data}` with data parsed when it is JSON. */
export function sseEvents(text: string): Array<{ event?: string; data: any }> {
  return text
    .split(/\r?\n\r?\n/)
    .filter((block) => block.trim())
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const raw = block
        .split(/\r?\n/)
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trimStart())
        .join('\n');
      let data: any = raw;
      try {
        data = JSON.parse(raw);
      } catch {
        // [DONE] and friends stay strings
      }
      return { event, data };
    });
}

/** A problem with an error answer in the format's shape (HTTP error) or as its in-stream error event, or null. */
export function errorProblem(format: TextFormat, a: Answer): string | null {
  if (a.status >= 400) {
    let body: unknown;
    try {
      body = JSON.parse(a.text);
    } catch {
      return `status ${a.status} with a body that is not JSON: ${a.text.slice(0, 200)}`;
    }
    return errorShapeProblem(SHAPE[format], body);
  }
  if (a.status !== 200) return `status ${a.status}`;
  const events = sseEvents(a.text);
  const last = events[events.length - 1];
  if (!last) return 'an empty 200';
  switch (format) {
    case 'chat':
      return last.data?.error && typeof last.data.error.message === 'string'
        ? null
        : `chat stream did not end with an error chunk: ${a.text.slice(-300)}`;
    case 'messages':
      return last.event === 'error' && last.data?.error?.message
        ? null
        : `messages stream did not end with event: error: ${a.text.slice(-300)}`;
    case 'responses':
      return (last.event === 'response.failed' && last.data?.response?.error?.message) || (last.event === 'error' && last.data?.message)
        ? null
        : `responses stream did not end with response.failed: ${a.text.slice(-300)}`;
    case 'gemini':
      return last.data?.error && typeof last.data.error.code === 'number'
        ? null
        : `gemini stream did not end with an error chunk: ${a.text.slice(-300)}`;
  }
}

/**
 * Opens a stream with node's http client and hands back the live response, for tests that pause or drop the
 * client side. Resolves once the status line is in.
 */
export function openStream(baseUrl: string, call: TextCall): Promise<{ req: http.ClientRequest; res: http.IncomingMessage }> {
  return new Promise((resolve, reject) => {
    const req = http.request(baseUrl + call.path, { method: 'POST', headers: call.headers }, (res) => resolve({ req, res }));
    req.on('error', reject);
    req.end(call.body);
  });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The gateway's error code of an answer: from the HTTP error body, or from the in-stream error event (`inStream`);
 * null when the answer carries no error.
 */
export function errorCode(format: TextFormat, a: Answer): { code: string; inStream: boolean } | null {
  const pick = (b: any): string | undefined =>
    format === 'gemini'
      ? googleErrorParts(b ?? {}).code
      : format === 'responses' && b?.type === 'response.failed'
        ? b.response?.error?.code
        : (b?.error?.code ?? (b?.type === 'error' ? b.code : undefined));
  if (a.status >= 400) {
    try {
      const code = pick(JSON.parse(a.text));
      return code ? { code, inStream: false } : null;
    } catch {
      return null;
    }
  }
  const last = sseEvents(a.text).at(-1);
  const code = last && typeof last.data === 'object' ? pick(last.data) : undefined;
  return code ? { code, inStream: true } : null;
}
