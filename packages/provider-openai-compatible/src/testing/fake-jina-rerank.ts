/**
 * A fake Jina-shape rerank server (what vLLM's and Infinity's `/v1/rerank` answer, after api.jina.ai's reference):
 * `model`, `query`, `documents` (strings or `{text}`), `top_n`, `return_documents`; answers
 * `{id, model, results[{index, relevance_score, document?}], usage{prompt_tokens, total_tokens}}`. Errors in
 * OpenAI's shape, as vLLM's are. It takes no key unless given one.
 */
import {
  fakeRanking,
  fakeTokenCount,
  readJson,
  sendJson,
  startFakeHttp,
  type FakeHttpRequest,
  type FakeHttpServer,
} from '@gateway/testkit';

export interface FakeJinaRerank {
  /** baseUrl as an OpenAI-compatible entry takes it: ends in /v1 */
  url: string;
  api: FakeHttpServer;
  bodies(): Record<string, unknown>[];
  close(): Promise<void>;
}

const errorBody = (status: number, message: string) => ({ error: { message, type: 'BadRequestError', param: null, code: status } });

function textOf(d: unknown): string | undefined {
  if (typeof d === 'string') return d;
  return d && typeof d === 'object' && typeof (d as { text?: unknown }).text === 'string' ? (d as { text: string }).text : undefined;
}

function rerank(r: FakeHttpRequest, res: Parameters<typeof sendJson>[0]) {
  const b = readJson(r);
  const docs = Array.isArray(b?.documents) ? b.documents.map(textOf) : undefined;
  if (!b || typeof b.query !== 'string' || !docs || docs.some((d) => d === undefined))
    return sendJson(res, 400, errorBody(400, 'query and documents (strings or {text}) are required'));
  const texts = docs as string[];
  const ranked = fakeRanking(b.query, texts).slice(0, typeof b.top_n === 'number' ? b.top_n : texts.length);
  const tokens = texts.reduce((n, d) => n + fakeTokenCount(d) + fakeTokenCount(b.query as string), 0);
  sendJson(res, 200, {
    id: 'rerank-fake-jina',
    model: b.model,
    results: ranked.map((x) => ({ ...x, ...(b.return_documents === false ? {} : { document: { text: texts[x.index] } }) })),
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  });
}

export async function startFakeJinaRerank(opts: { apiKey?: string } = {}): Promise<FakeJinaRerank> {
  const api = await startFakeHttp(
    [
      {
        kind: 'create',
        method: 'POST',
        pattern: /^\/v1\/rerank$/,
        handle: (r, res) =>
          opts.apiKey && r.headers.authorization !== `Bearer ${opts.apiKey}`
            ? sendJson(res, 401, errorBody(401, 'Unauthorized'))
            : rerank(r, res),
      },
    ],
    errorBody,
  );
  return { url: `${api.origin}/v1`, api, bodies: () => api.requests.map((r) => readJson(r) ?? {}), close: () => api.close() };
}
