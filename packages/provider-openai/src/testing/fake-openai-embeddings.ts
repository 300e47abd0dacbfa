/**
 * A fake OpenAI embeddings upstream, after the API reference (openai-openapi 2.3.0 `CreateEmbeddingRequest`,
 * `CreateEmbeddingResponse`): `POST /v1/embeddings` with `input` a string, strings, a token array or token arrays
 * (at most 2,048, no empty string), `encoding_format` float (default) or base64 (little-endian float32),
 * `dimensions` (text-embedding-3 only, at most the model's size; the vector is cut and renormalised, as OpenAI does).
 * Vectors are deterministic per input. Errors in OpenAI's shape.
 */
import { bearerRoutes, readJson, sendJson, startFakeJsonApi, type FakeHttpRequest, type FakeJsonApi } from '@gateway/testkit';
import { openAiErrorBody as errorBody } from './fake-openai-error';

/** url: the base URL as the openai SDK takes it (ends in /v1) */
export type FakeOpenAiEmbeddings = FakeJsonApi;

export interface FakeOpenAiEmbeddingsOptions {
  apiKey?: string;
  /** list `data` last input first (the index still names each), as a server may */
  reverseData?: boolean;
  /** leave `usage` out, as some OpenAI-compatible servers do */
  noUsage?: boolean;
}

const SIZES: Record<string, number> = { 'text-embedding-3-small': 1536, 'text-embedding-3-large': 3072, 'text-embedding-ada-002': 1536 };

/** A deterministic unit vector for one input. */
export function fakeOpenAiVector(input: string | number[], size: number): number[] {
  let h = 2166136261;
  for (const c of typeof input === 'string' ? input : input.join(',')) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
  const v = Array.from({ length: size }, (_, i) => Math.sin(h + i * 0.7));
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return v.map((x) => x / norm);
}

function inputsOf(input: unknown): Array<string | number[]> | string {
  if (typeof input === 'string') return [input];
  if (!Array.isArray(input) || input.length === 0) return "'input' must be a non-empty string or array";
  if (input.every((x) => typeof x === 'number')) return [input as number[]];
  if (input.every((x) => typeof x === 'string' || (Array.isArray(x) && x.every((t) => Number.isInteger(t)))))
    return input as Array<string | number[]>;
  return "'input' is invalid";
}

function embed(r: FakeHttpRequest, res: Parameters<typeof sendJson>[0], opts: FakeOpenAiEmbeddingsOptions) {
  const b = readJson(r) ?? {};
  const model = b.model;
  if (typeof model !== 'string') return sendJson(res, 400, errorBody(400, "'model' is a required property", 'model'));
  const size = SIZES[model];
  if (!size)
    return sendJson(res, 404, {
      error: { message: `The model \`${model}\` does not exist`, type: 'invalid_request_error', param: null, code: 'model_not_found' },
    });
  const inputs = inputsOf(b.input);
  if (typeof inputs === 'string') return sendJson(res, 400, errorBody(400, inputs, 'input'));
  if (inputs.length > 2048) return sendJson(res, 400, errorBody(400, "'input' must have at most 2048 items", 'input'));
  if (inputs.some((i) => i.length === 0)) return sendJson(res, 400, errorBody(400, "'input' cannot contain an empty string", 'input'));
  const dims = b.dimensions;
  if (dims !== undefined && (model === 'text-embedding-ada-002' || typeof dims !== 'number' || dims < 1 || dims > size))
    return sendJson(res, 400, errorBody(400, `This model does not support specifying dimensions of ${String(dims)}.`, 'dimensions'));
  const vectors = inputs.map((i) => {
    const v = fakeOpenAiVector(i, size).slice(0, (dims as number | undefined) ?? size);
    const n = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
    return v.map((x) => x / n);
  });
  const encode = (v: number[]) => {
    if (b.encoding_format !== 'base64') return v;
    const buf = Buffer.alloc(v.length * 4);
    v.forEach((x, i) => buf.writeFloatLE(x, i * 4));
    return buf.toString('base64');
  };
  const data = vectors.map((v, index) => ({ object: 'embedding', index, embedding: encode(v) }));
  if (opts.reverseData) data.reverse();
  const tokens = inputs.reduce((n, i) => n + (typeof i === 'string' ? Math.ceil(i.length / 4) : i.length), 0);
  sendJson(
    res,
    200,
    { object: 'list', data, model, ...(opts.noUsage ? {} : { usage: { prompt_tokens: tokens, total_tokens: tokens } }) },
    { 'x-request-id': 'req_fake_embed' },
  );
}

export function startFakeOpenAiEmbeddings(opts: FakeOpenAiEmbeddingsOptions = {}): Promise<FakeOpenAiEmbeddings> {
  const apiKey = opts.apiKey ?? 'sk-fake-embeddings-0001';
  const authed = bearerRoutes(apiKey, errorBody, 'Incorrect API key provided.');
  const route = { kind: 'create', method: 'POST', pattern: /^\/v1\/embeddings$/, handle: authed((r, res) => embed(r, res, opts)) } as const;
  return startFakeJsonApi(apiKey, [route], errorBody, '/v1');
}
