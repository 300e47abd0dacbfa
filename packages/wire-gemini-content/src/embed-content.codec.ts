import { invalid, type EmbeddingRequest } from '@gateway/core';
import type { EmbedContentRequestBody } from './embed-content.request.schema';

type Options = Pick<EmbeddingRequest, 'inputs' | 'dimensions' | 'taskType' | 'title'>;

/** One Content as one input: its text parts joined, as Gemini embeds them; any other part is refused. */
function textOf(request: EmbedContentRequestBody, field: string): string {
  return request.content.parts
    .map((p, j) => {
      if (typeof p.text !== 'string')
        throw invalid('unsupported_part', `${field}.content.parts[${j}] must be a text part: only text is embedded.`, `${field}.content`);
      return p.text;
    })
    .join(' ');
}

/**
 * The requests of one call as one embeddings command. They share one upstream call, so their options must agree
 * (every client sends the same for all); a batch that mixes them is refused, naming the first that differs.
 */
export function decodeEmbedRequests(requests: readonly EmbedContentRequestBody[], field = 'requests'): Options {
  const first = requests[0];
  requests.forEach((r, i) => {
    for (const k of ['taskType', 'title', 'outputDimensionality'] as const)
      if (k !== 'title' && r[k] !== first?.[k])
        throw invalid(
          'mixed_embed_options',
          `${field}[${i}].${k} differs from ${field}[0].${k}: send one batch per setting.`,
          `${field}[${i}].${k}`,
        );
  });
  const titles = requests.some((r) => r.title !== undefined);
  return {
    inputs: requests.map((r, i) => textOf(r, `${field}[${i}]`)),
    dimensions: first?.outputDimensionality,
    taskType: first?.taskType,
    ...(titles && requests.length === 1 ? { title: first?.title } : {}),
  };
}
