import { imageHasAlpha, probeImage, type GeneratedImage, type ImageResult, type PreparedImageCall } from '@gateway/core';

/** The sizes OpenAI's answer schemas list (ImagesResponse; the stream events add `auto`): another size is not said. */
const LISTED_SIZES: ReadonlySet<string> = new Set(['1024x1024', '1024x1536', '1536x1024']);

/**
 * The settings an answer reports, as they were actually used rather than as asked: the size is the produced image's
 * own (an edit of a 1x1 input answers the size it produced), said only when the schema lists it, else left out of an
 * ImagesResponse and `auto` in a stream event. What the caller left `auto` is what the upstream reports it used; a
 * background is also `opaque` when the image has no alpha channel (JPEG, RGB PNG). `concrete` holds only the values
 * an ImagesResponse's schema lists (no `auto`); the stream events' schema allows `auto`.
 */
export function usedSettings(call: PreparedImageCall, image: GeneratedImage | undefined, used?: ImageResult['used']) {
  const s = call.settings;
  const probed = image ? probeImage(image.data) : null;
  const produced = probed ? `${probed.width}x${probed.height}` : s.size;
  const size = LISTED_SIZES.has(produced) ? produced : 'auto';
  const opaque = image && imageHasAlpha(image.data) === false ? 'opaque' : undefined;
  const background = s.background !== 'auto' ? s.background : (used?.background ?? opaque ?? 'auto');
  const quality = s.quality !== 'auto' ? s.quality : (used?.quality ?? 'auto');
  return {
    size,
    background,
    quality,
    concrete: {
      ...(size !== 'auto' ? { size } : {}),
      ...(background !== 'auto' ? { background } : {}),
      ...(quality !== 'auto' ? { quality } : {}),
    },
  };
}
