import type { IncomingHttpHeaders } from 'node:http';
import type { FakeReply, RecordedRequest } from './fake-script';

export interface FakeRoute {
  model: string;
  stream: boolean;
  /** a token-counting route: answered by the dialect's countTokens */
  count?: boolean;
}

/** What makes a fake speak one provider's wire format. */
export interface FakeDialect {
  readonly name: 'openai' | 'openai-responses' | 'anthropic' | 'gemini';
  /** appended to the origin to make the base URL the provider's SDK (and the gateway's config) takes */
  readonly basePath: string;
  readonly requestIdHeader: string;
  /** null: not a route of this API (→ 404) */
  route(method: string, path: string, req: RecordedRequest): FakeRoute | null;
  /** null when the request carries the key as this API expects; else the status to refuse with */
  checkAuth(headers: IncomingHttpHeaders, apiKey: string): { status: number; message: string; reason?: string } | null;
  errorBody(status: number, message: string, reason?: string): unknown;
  /** the answer when a test scripted none */
  defaultReply(req: RecordedRequest): FakeReply;
  json(reply: FakeReply, route: FakeRoute, req: RecordedRequest): unknown;
  /** SSE frames, each complete with its blank line */
  frames(reply: FakeReply, route: FakeRoute, req: RecordedRequest): string[];
  /** the body of the API's token-count answer (dialects with a counting route) */
  countTokens?(req: RecordedRequest): unknown;
  /** the API's own way of failing inside a 200 stream */
  streamErrorFrame(message: string): string;
}

export function finishOf(reply: FakeReply): NonNullable<FakeReply['finish']> {
  return reply.finish ?? (reply.toolCalls?.length ? 'tool-calls' : 'stop');
}

/** The text of the last user message: its string content, or its parts of `partType` joined. */
export function lastUserText(messages: unknown, partType = 'text'): string {
  const users = (Array.isArray(messages) ? messages : []).filter((m: any) => m?.role === 'user');
  const c = users[users.length - 1]?.content;
  if (typeof c === 'string') return c;
  return Array.isArray(c)
    ? c
        .filter((p: any) => p?.type === partType)
        .map((p: any) => p.text)
        .join('')
    : '';
}

/** `data: <json>\n\n`, optionally with an `event:` line. */
export function sse(data: unknown, event?: string): string {
  const payload = typeof data === 'string' ? data : JSON.stringify(data);
  return `${event ? `event: ${event}\n` : ''}data: ${payload}\n\n`;
}
