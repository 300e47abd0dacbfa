/**
 * A fake Voyage AI upstream, after docs.voyageai.com/reference/embeddings-api and /reranker-api: `POST /v1/embeddings`
 * (`input` a string or ≤ 1,000 strings, `input_type` query|document|null, `output_dimension` 256/512/1024/2048,
 * default 1,024) and `POST /v1/rerank` (`documents` ≤ 1,000, `top_k`, `return_documents`). Answers carry
 * `usage.total_tokens`; errors are `{"detail": "..."}`.
 */
import { bearerJsonRoutes, fakeRanking, fakeTokenCount, fakeVector, sendJson, startFakeJsonApi, type FakeJsonApi } from '@gateway/testkit';

/** url: the base URL as Voyage's docs give it (ends in /v1) */
export type FakeVoyage = FakeJsonApi;

type Res = Parameters<typeof sendJson>[0];
type Body = Record<string, unknown>;

const errorBody = (_status: number, message: string) => ({ detail: message });
const DIMENSIONS = [256, 512, 1024, 2048];

function badEmbed(b: Body | undefined): string | undefined {
  if (!b || typeof b.model !== 'string') return 'model is required';
  const input = typeof b.input === 'string' ? [b.input] : b.input;
  if (!Array.isArray(input) || !input.every((t) => typeof t === 'string')) return 'input must be a string or a list of strings';
  if (input.length > 1000) return `The batch size limit is 1000. Your batch size is ${input.length}.`;
  if (b.input_type != null && !['query', 'document'].includes(String(b.input_type)))
    return "input_type must be 'query', 'document' or null";
  if (b.output_dimension != null && !DIMENSIONS.includes(Number(b.output_dimension)))
    return 'output_dimension must be one of 256, 512, 1024, 2048';
  return undefined;
}

function badRerank(b: Body | undefined): string | undefined {
  if (!b || typeof b.model !== 'string' || typeof b.query !== 'string') return 'model and query are required';
  if (!Array.isArray(b.documents) || !b.documents.every((d) => typeof d === 'string')) return 'documents must be a list of strings';
  if (b.documents.length > 1000) return 'The number of documents must not exceed 1000.';
  return undefined;
}

function embed(b: Body, res: Res) {
  const input = typeof b.input === 'string' ? [b.input] : (b.input as string[]);
  const dims = (b.output_dimension as number | undefined) ?? 1024;
  // answered in reverse index order: the gateway must put vectors back by `index`
  const data = input
    .map((t, index) => ({ object: 'embedding', embedding: fakeVector(`${String(b.input_type)}:${t}`, dims), index }))
    .reverse();
  sendJson(res, 200, { object: 'list', data, model: b.model, usage: { total_tokens: input.reduce((n, t) => n + fakeTokenCount(t), 0) } });
}

function rerank(b: Body, res: Res) {
  const documents = b.documents as string[];
  const ranked = fakeRanking(b.query as string, documents).slice(0, (b.top_k as number | undefined) ?? documents.length);
  const tokens = fakeTokenCount(b.query as string) * documents.length + documents.reduce((n, d) => n + fakeTokenCount(d), 0);
  sendJson(res, 200, {
    object: 'list',
    data: ranked.map((r) => ({ ...r, ...(b.return_documents ? { document: documents[r.index] } : {}) })),
    model: b.model,
    usage: { total_tokens: tokens },
  });
}

export function startFakeVoyage(opts: { apiKey?: string } = {}): Promise<FakeVoyage> {
  const apiKey = opts.apiKey ?? 'pa-fake-voyage-key-0001';
  const guarded = bearerJsonRoutes(apiKey, errorBody, 'Provided API key is invalid.');
  return startFakeJsonApi(
    apiKey,
    [
      { kind: 'create', method: 'POST', pattern: /^\/v1\/embeddings$/, handle: guarded(badEmbed, embed) },
      { kind: 'poll', method: 'POST', pattern: /^\/v1\/rerank$/, handle: guarded(badRerank, rerank) },
    ],
    errorBody,
    '/v1',
  );
}
