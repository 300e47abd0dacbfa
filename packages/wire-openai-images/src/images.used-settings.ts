import { imageHasAlpha, probeImage, type GeneratedImage, type ImageResult, type PreparedImageCall } from '@gateway/core';

/**
 * The settings an answer reports, as they were actually used rather than as asked: the size is the produced image's
 * own (an edit of a 1x1 input answers the size it produced). What the caller left `auto` is what the upstream reports
 * it used; a background is also `opaque` when the image has no alpha channel (JPEG, RGB PNG). `concrete` holds
 * only the values an ImagesResponse's schema lists (no `auto`); the stream events' schema allows `auto`.
 */
export function usedSettings(call: PreparedImageCall, image: GeneratedImage | undefined, used?: ImageResult['used']) {
  const s = call.settings;
  const probed = image ? probeImage(image.data) : null;
  const opaque = image && imageHasAlpha(image.data) === false ? 'opaque' : undefined;
  const background = s.background !== 'auto' ? s.background : (used?.background ?? opaque ?? 'auto');
  const quality = s.quality !== 'auto' ? s.quality : (used?.quality ?? 'auto');
  return {
    size: probed ? `${probed.width}x${probed.height}` : s.size,
    background,
    quality,
    concrete: {
      ...(background !== 'auto' ? { background } : {}),
      ...(quality !== 'auto' ? { quality } : {}),
    },
  };
}
