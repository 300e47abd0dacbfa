/**
 * A fake Gemini embeddings upstream, after the API reference (`models.embedContent`, `models.batchEmbedContents`):
 * `POST /{version}/models/{model}:batchEmbedContents` with `requests[]` whose `model` must be the path's, a text
 * `content`, optional `taskType`, `title` (RETRIEVAL_DOCUMENT only) and `outputDimensionality` (1-3,072). As Gemini
 * does, the full 3,072 vector is unit length and a shortened one is NOT renormalised; no token counts. Errors in
 * Google's shape; the key travels in `x-goog-api-key`.
 */
import { readJson, sendJson, startFakeJsonApi, type FakeHttpRequest, type FakeJsonApi } from '@gateway/testkit';

/** url: the base URL as the Gemini SDK takes it (no version) */
export type FakeGeminiEmbed = FakeJsonApi;

const FULL = 3072;

const errorBody = (status: number, message: string) => ({
  error: { code: status, message, status: status === 404 ? 'NOT_FOUND' : status === 403 ? 'PERMISSION_DENIED' : 'INVALID_ARGUMENT' },
});

/** A deterministic unit vector of 3,072 values for one text. */
function fullVector(text: string): number[] {
  let h = 2166136261;
  for (const c of text) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
  const v = Array.from({ length: FULL }, (_, i) => Math.cos(h + i * 1.3));
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return v.map((x) => x / norm);
}

function batch(r: FakeHttpRequest, res: Parameters<typeof sendJson>[0], model: string) {
  const requests = readJson(r)?.requests;
  if (!Array.isArray(requests) || requests.length === 0)
    return sendJson(res, 400, errorBody(400, '* BatchEmbedContentsRequest.requests: must not be empty'));
  if (requests.length > 100)
    return sendJson(res, 400, errorBody(400, '* BatchEmbedContentsRequest.requests: at most 100 requests can be in one batch'));
  const out: Array<{ values: number[] }> = [];
  for (const [i, q] of (requests as Array<Record<string, any>>).entries()) {
    if (q.model !== `models/${model}`)
      return sendJson(res, 400, errorBody(400, `* BatchEmbedContentsRequest.requests[${i}].model: unexpected model name format`));
    const text = (q.content?.parts ?? []).map((p: { text?: string }) => p.text ?? '').join(' ');
    if (!text) return sendJson(res, 400, errorBody(400, `* BatchEmbedContentsRequest.requests[${i}].content: contents must not be empty`));
    if (q.title !== undefined && q.taskType !== 'RETRIEVAL_DOCUMENT')
      return sendJson(res, 400, errorBody(400, 'Document title is only supported for RETRIEVAL_DOCUMENT task type.'));
    const dims = q.outputDimensionality ?? FULL;
    if (!Number.isInteger(dims) || dims < 1 || dims > FULL)
      return sendJson(res, 400, errorBody(400, 'outputDimensionality must be between 1 and 3072'));
    out.push({ values: fullVector(`${q.taskType ?? ''}:${text}`).slice(0, dims) });
  }
  sendJson(res, 200, { embeddings: out }, { 'x-goog-request-id': 'fake-gemini-embed' });
}

export function startFakeGeminiEmbed(opts: { apiKey?: string; models?: string[] } = {}): Promise<FakeGeminiEmbed> {
  const apiKey = opts.apiKey ?? 'fake-gemini-embed-key-0001';
  const models = opts.models ?? ['gemini-embedding-001', 'text-embedding-004'];
  return startFakeJsonApi(
    apiKey,
    [
      {
        kind: 'create',
        method: 'POST',
        pattern: /^\/v1(?:beta)?\/models\/[^/:]+:batchEmbedContents$/,
        handle: (r, res) => {
          if (r.headers['x-goog-api-key'] !== apiKey)
            return sendJson(res, 403, errorBody(403, "Method doesn't allow unregistered callers."));
          const model = /models\/([^/:]+):/.exec(r.path)![1]!;
          if (!models.includes(model))
            return sendJson(
              res,
              404,
              errorBody(404, `models/${model} is not found for API version v1beta, or is not supported for embedContent.`),
            );
          batch(r, res, model);
        },
      },
    ],
    errorBody,
  );
}
