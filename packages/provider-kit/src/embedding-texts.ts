import { GatewayError, type EmbeddingRequest } from '@gateway/core';

/** The texts of an embedding request, for upstreams that embed text only: token ids cannot be turned back into text. */
export function embeddingTexts(request: EmbeddingRequest): string[] {
  return request.inputs.map((input, i) => {
    if (typeof input === 'string') return input;
    throw new GatewayError('invalid_request', `input[${i}]: this model's upstream embeds texts, not token arrays.`, {
      code: 'token_arrays_unsupported',
      param: 'input',
    });
  });
}
