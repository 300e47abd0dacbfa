import { invalid, type ModelSpec } from '@gateway/core';
import { displayNameOf, GENERATION_METHODS, tokenLimitsOf, versionOf } from './model-metadata';
import { encodeGeminiVideoCapabilities } from './video-capabilities.codec';

export const GEMINI_PAGE_SIZE = Object.freeze({ default: 50, max: 1000 });

export function encodeGeminiModel(m: ModelSpec) {
  const limits = tokenLimitsOf(m);
  return {
    name: `models/${m.id}`,
    version: versionOf(m),
    displayName: displayNameOf(m),
    description: m.description ?? `${displayNameOf(m)} (${m.kind} model)`,
    inputTokenLimit: limits.input,
    outputTokenLimit: limits.output,
    supportedGenerationMethods: GENERATION_METHODS[m.kind],
    // An extension field (docs/formats/model-lists.md): @google/genai passes it through untouched.
    ...(m.kind === 'video' && { videoCapabilities: encodeGeminiVideoCapabilities(m) }),
  };
}

/** Opaque to clients: the id of the last model of the previous page. */
const tokenFor = (id: string) => Buffer.from(`after:${id}`, 'utf8').toString('base64url');

function pageSizeOf(raw: unknown): number {
  if (raw === undefined || raw === '') return GEMINI_PAGE_SIZE.default;
  if (typeof raw !== 'string' || !/^\d{1,9}$/.test(raw)) {
    throw invalid('invalid_page_size', '"pageSize" must be a non-negative integer.', 'pageSize');
  }
  const n = Number(raw);
  return n === 0 ? GEMINI_PAGE_SIZE.default : Math.min(n, GEMINI_PAGE_SIZE.max);
}

/**
 * One page of `models`. `nextPageToken` is left out on the last page: the SDK's pager
 * keeps requesting while the field is present, even when it is an empty string.
 */
export function pageGeminiModels(models: ModelSpec[], query: { pageSize?: unknown; pageToken?: unknown }) {
  const size = pageSizeOf(query.pageSize);
  let start = 0;
  if (query.pageToken !== undefined && query.pageToken !== '') {
    const decoded = typeof query.pageToken === 'string' ? Buffer.from(query.pageToken, 'base64url').toString('utf8') : '';
    const at = decoded.startsWith('after:') ? models.findIndex((m) => m.id === decoded.slice(6)) : -1;
    if (at < 0) throw invalid('invalid_page_token', '"pageToken" is not a token from a previous page of this list.', 'pageToken');
    start = at + 1;
  }
  const page = models.slice(start, start + size);
  const more = start + size < models.length;
  return { models: page.map(encodeGeminiModel), ...(more ? { nextPageToken: tokenFor(page[page.length - 1]!.id) } : {}) };
}
