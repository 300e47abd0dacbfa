import { chunksOf, DEFAULT_USAGE, type FakeReply, type RecordedRequest } from './fake-script';
import { finishOf, sse, type FakeDialect, type FakeRoute } from './fake-dialect';

const FINISH = { stop: 'STOP', length: 'MAX_TOKENS', 'tool-calls': 'STOP', 'content-filter': 'SAFETY' } as const;

const STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

function usage(reply: FakeReply) {
  const u = reply.usage ?? DEFAULT_USAGE;
  const thoughts = u.reasoning ?? 0;
  return {
    promptTokenCount: u.input,
    candidatesTokenCount: u.output - thoughts,
    totalTokenCount: u.input + u.output,
    ...(u.cached ? { cachedContentTokenCount: u.cached } : {}),
    ...(thoughts ? { thoughtsTokenCount: thoughts } : {}),
  };
}

function lastUserText(body: any): string {
  const users = (body?.contents ?? []).filter(
    (c: any) => (c?.role ?? 'user') === 'user' && c?.parts?.some((p: any) => typeof p?.text === 'string'),
  );
  return (users[users.length - 1]?.parts ?? []).map((p: any) => p?.text ?? '').join('');
}

/** generateContent as generativelanguage.googleapis.com speaks it: bare `data:` frames, no end marker but EOF. */
export const geminiContentDialect: FakeDialect = {
  name: 'gemini',
  basePath: '',
  requestIdHeader: 'x-request-id',

  route(method, path): FakeRoute | null {
    const m = /^\/v1beta\/models\/([^/:]+):(generateContent|streamGenerateContent|countTokens)$/.exec(path);
    if (method !== 'POST' || !m) return null;
    return { model: decodeURIComponent(m[1]!), stream: m[2] === 'streamGenerateContent', count: m[2] === 'countTokens' };
  },

  /** Words of every text part of `generateContentRequest` (or of bare `contents`), system instruction included. */
  countTokens(req: RecordedRequest) {
    const g = req.body?.generateContentRequest ?? req.body ?? {};
    const parts = [...(g.systemInstruction?.parts ?? []), ...(g.contents ?? []).flatMap((c: any) => c?.parts ?? [])];
    const words = parts
      .map((p: any) => (typeof p?.text === 'string' ? p.text : ''))
      .join(' ')
      .split(/\s+/)
      .filter(Boolean).length;
    return { totalTokens: words, promptTokensDetails: [{ modality: 'TEXT', tokenCount: words }] };
  },

  checkAuth(headers, apiKey) {
    if (headers['x-goog-api-key'] === apiKey) return null;
    // Gemini says "bad key" with a 400, as the real API does.
    return { status: 400, message: 'API key not valid. Please pass a valid API key.', reason: 'API_KEY_INVALID' };
  },

  errorBody(status, message, reason) {
    return {
      error: {
        code: status,
        message,
        status: STATUS[status] ?? 'UNKNOWN',
        ...(reason ? { details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason, domain: 'googleapis.com' }] } : {}),
      },
    };
  },

  defaultReply(req: RecordedRequest): FakeReply {
    return { text: `fake-gemini says: ${lastUserText(req.body)}` };
  },

  json(reply, route) {
    const parts = [
      ...(reply.reasoning ? [{ text: reply.reasoning.text, thought: true }] : []),
      ...(reply.text !== undefined ? [{ text: reply.text }] : []),
      ...(reply.toolCalls ?? []).map((c) => ({ functionCall: { name: c.name, args: c.arguments } })),
    ];
    return {
      candidates: [{ content: { parts, role: 'model' }, finishReason: FINISH[finishOf(reply)], index: 0 }],
      usageMetadata: usage(reply),
      modelVersion: route.model,
      responseId: 'fake-response-0001',
    };
  },

  frames(reply, route) {
    const chunk = (parts: object[], last = false) =>
      sse({
        candidates: [{ content: { parts, role: 'model' }, ...(last ? { finishReason: FINISH[finishOf(reply)] } : {}), index: 0 }],
        usageMetadata: last
          ? usage(reply)
          : { promptTokenCount: (reply.usage ?? DEFAULT_USAGE).input, totalTokenCount: (reply.usage ?? DEFAULT_USAGE).input },
        modelVersion: route.model,
        responseId: 'fake-response-0001',
      });
    const pieces: object[][] = [
      ...chunksOf(reply.reasoning?.text ?? '').map((t) => [{ text: t, thought: true }]),
      ...chunksOf(reply.text ?? '').map((t) => [{ text: t }]),
      ...(reply.toolCalls ?? []).map((c) => [{ functionCall: { name: c.name, args: c.arguments } }]),
    ];
    if (pieces.length === 0) pieces.push([{ text: '' }]);
    return pieces.map((p, i) => chunk(p, i === pieces.length - 1));
  },

  streamErrorFrame(message) {
    return sse({ error: { code: 503, message, status: 'UNAVAILABLE' } });
  },
};
