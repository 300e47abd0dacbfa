import { invalid } from '@gateway/core';

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

/** Throws the refusal for a field that is not in `allowed`. */
export function refuseField(key: string, at: string, allowed: readonly string[]): never {
  const named = NAMED_REFUSALS[key];
  if (named) throw invalid(named.code, `${at}: ${named.what}.`, at);
  throw invalid('unsupported_field', `Unknown or unsupported field ${at}; allowed here: ${allowed.join(', ')}.`, at);
}

/** Refuses every non-null key of `obj` outside `allowed`. */
export function onlyAllowed(obj: Record<string, unknown>, at: string, allowed: readonly string[]): void {
  for (const key of Object.keys(obj)) {
    if (obj[key] === null || obj[key] === undefined || allowed.includes(key)) continue;
    refuseField(key, at ? `${at}.${key}` : key, allowed);
  }
}
