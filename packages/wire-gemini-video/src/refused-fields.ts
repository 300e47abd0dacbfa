import { invalid, type GatewayError } from '@gateway/core';

/**
 * Veo controls this gateway does not offer, each with its own stable code so a client can tell
 * them apart; anything else unlisted is `unsupported_field`. Checked at every level (instance,
 * parameters, image objects) because the SDK and hand-written clients put them in different places.
 */
const NAMED_REFUSALS: Readonly<Record<string, { code: string; what: string }>> = {
  seed: { code: 'unsupported_seed', what: 'seeds are not supported' },
  negativePrompt: { code: 'unsupported_negative_prompt', what: 'negative prompts are not supported' },
  personGeneration: { code: 'unsupported_person_generation', what: 'personGeneration is not configurable' },
  enhancePrompt: { code: 'unsupported_enhance_prompt', what: 'prompt enhancement is not supported' },
  video: { code: 'unsupported_video_input', what: 'video input (video extension) is not supported' },
  mask: { code: 'unsupported_mask', what: 'masks are not supported' },
  gcsUri: { code: 'unsupported_gcs_uri', what: 'gs:// inputs are not supported; send the bytes in bytesBase64Encoded' },
  storageUri: { code: 'unsupported_gcs_uri', what: 'gs:// outputs are not supported; download the video from the operation result' },
  outputGcsUri: { code: 'unsupported_gcs_uri', what: 'gs:// outputs are not supported; download the video from the operation result' },
};

/** The refusal for a field that is not in `allowed`: a named control's own code, else unsupported_field. */
export function fieldRefusal(key: string, at: string, allowed: readonly string[]): GatewayError {
  const named = NAMED_REFUSALS[key];
  if (named) return invalid(named.code, `${at}: ${named.what}.`, at);
  return invalid('unsupported_field', `Unknown or unsupported field ${at}; allowed here: ${allowed.join(', ')}.`, at);
}
