/**
 * A fake Cohere v2 upstream, after docs.cohere.com/reference/embed and /reference/rerank: `POST /v2/embed`
 * (`texts` ≤ 96, `input_type` required, `embedding_types`, `output_dimension` 256/512/1024/1536) and
 * `POST /v2/rerank` (`documents` ≤ 1,000 strings, `top_n`). Errors are `{"id", "message"}`; a wrong key is 401.
 */
import { bearerJsonRoutes, fakeRanking, fakeTokenCount, fakeVector, sendJson, startFakeJsonApi, type FakeJsonApi } from '@gateway/testkit';

/** url: the base URL as the cohere SDK takes it (no /v2) */
export type FakeCohere = FakeJsonApi;

type Res = Parameters<typeof sendJson>[0];

const errorBody = (_status: number, message: string) => ({ id: 'err-fake', message });
const INPUT_TYPES = ['search_document', 'search_query', 'classification', 'clustering', 'image'];
const DIMENSIONS = [256, 512, 1024, 1536];

function badEmbed(b: Record<string, unknown> | undefined): string | undefined {
  if (!b || typeof b.model !== 'string') return 'invalid request: model must be a string';
  if (!Array.isArray(b.texts) || !b.texts.every((t) => typeof t === 'string')) return 'invalid request: texts must be an array of strings';
  if (b.texts.length > 96) return `invalid request: texts must be at most 96 items, received ${b.texts.length}`;
  if (!INPUT_TYPES.includes(String(b.input_type))) return 'invalid request: input_type is required for embed-v3 and later models';
  if (b.output_dimension !== undefined && !DIMENSIONS.includes(Number(b.output_dimension)))
    return 'invalid request: output_dimension must be one of 256, 512, 1024, 1536';
  return undefined;
}

function badRerank(b: Record<string, unknown> | undefined): string | undefined {
  if (!b || typeof b.model !== 'string' || typeof b.query !== 'string') return 'invalid request: model and query are required';
  if (!Array.isArray(b.documents) || !b.documents.every((d) => typeof d === 'string'))
    return 'invalid request: documents must be an array of strings';
  if (b.documents.length > 1000) return 'invalid request: too many documents, at most 1000';
  if (b.top_n !== undefined && !(Number.isInteger(b.top_n) && (b.top_n as number) >= 1)) return 'invalid request: top_n must be positive';
  return undefined;
}

function embed(b: Record<string, unknown>, res: Res) {
  const texts = b.texts as string[];
  const dims = (b.output_dimension as number | undefined) ?? 1536;
  sendJson(res, 200, {
    id: `embed-${texts.length}`,
    texts,
    embeddings: { float: texts.map((t) => fakeVector(`${String(b.input_type)}:${t}`, dims)) },
    meta: { api_version: { version: '2' }, billed_units: { input_tokens: texts.reduce((n, t) => n + fakeTokenCount(t), 0) } },
    response_type: 'embeddings_by_type',
  });
}

function rerank(b: Record<string, unknown>, res: Res) {
  const documents = b.documents as string[];
  const ranked = fakeRanking(b.query as string, documents);
  sendJson(
    res,
    200,
    {
      id: 'rerank-fake',
      results: ranked.slice(0, (b.top_n as number | undefined) ?? ranked.length),
      meta: { api_version: { version: '2' }, billed_units: { search_units: Math.max(1, Math.ceil(documents.length / 100)) } },
    },
    { 'x-request-id': 'cohere-req-1' },
  );
}

export function startFakeCohere(opts: { apiKey?: string } = {}): Promise<FakeCohere> {
  const apiKey = opts.apiKey ?? 'fake-cohere-key-0001';
  const guarded = bearerJsonRoutes(apiKey, errorBody, 'invalid api token');
  return startFakeJsonApi(
    apiKey,
    [
      { kind: 'create', method: 'POST', pattern: /^\/v2\/embed$/, handle: guarded(badEmbed, embed) },
      { kind: 'poll', method: 'POST', pattern: /^\/v2\/rerank$/, handle: guarded(badRerank, rerank) },
    ],
    errorBody,
  );
}
