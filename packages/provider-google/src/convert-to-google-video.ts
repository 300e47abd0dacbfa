import { invalid, type VideoImage, type VideoRequest } from '@gateway/provider-kit';
import type { VeoImage, VeoPersonGeneration, VeoPredictBody } from './google-video-api';

/** What Veo renders, beyond the gateway's own limits table (docs/providers/veo.md). */
export const VEO_LIMITS = Object.freeze({
  ratios: ['16:9', '9:16'] as readonly string[],
  maxReferenceImages: 3,
  /** Veo 3 and later: 1080p and 4k, and reference images, render 8 s only */
  fullLengthSeconds: 8,
});

/** Which generation an upstream model name is; names the adapter does not recognise get the newest rules. */
export function veoGeneration(upstreamModel: string): '2' | '3.0' | '3.1' {
  if (/veo-2/.test(upstreamModel)) return '2';
  if (/veo-3\.0/.test(upstreamModel)) return '3.0';
  return '3.1';
}

/** Veo 2 renders 5–8 s; Veo 3 and later 4, 6 or 8 s. */
export function veoDurations(upstreamModel: string): number[] {
  return veoGeneration(upstreamModel) === '2' ? [5, 6, 7, 8] : [4, 6, 8];
}

/** Veo 2: 720p; Veo 3: 720p, 1080p; Veo 3.1: also 4k. */
export function veoResolutions(upstreamModel: string): string[] {
  const g = veoGeneration(upstreamModel);
  return g === '2' ? ['720p'] : g === '3.0' ? ['720p', '1080p'] : ['720p', '1080p', '4k'];
}

/** `adaptive` becomes the Veo ratio nearest to the first frame's shape (landscape without one). */
export function veoRatio(req: VideoRequest): '16:9' | '9:16' {
  if (req.aspectRatio === '9:16' || req.aspectRatio === '16:9') return req.aspectRatio;
  const frame = req.firstFrame ?? req.referenceImages?.[0];
  return frame && frame.height > frame.width ? '9:16' : '16:9';
}

const refuse = (code: string, message: string, param: string) => invalid(code, `${message} (this model's upstream, Veo)`, param);

/** Refuses, before anything is sent, what Veo cannot render. */
export function checkVeoRequest(req: VideoRequest & { upstreamModel: string }): void {
  const gen = veoGeneration(req.upstreamModel);
  const resolutions = veoResolutions(req.upstreamModel);
  if (!resolutions.includes(req.resolution)) {
    throw refuse(
      'resolution_not_supported',
      `Resolution ${req.resolution} is not available; allowed: ${resolutions.join(', ')}`,
      'resolution',
    );
  }
  if (req.aspectRatio !== 'adaptive' && !VEO_LIMITS.ratios.includes(req.aspectRatio)) {
    throw refuse(
      'aspect_ratio_not_supported',
      `Aspect ratio ${req.aspectRatio} is not available; allowed: ${VEO_LIMITS.ratios.join(', ')} or adaptive`,
      'aspect_ratio',
    );
  }
  const durations = veoDurations(req.upstreamModel);
  if (!durations.includes(req.durationSeconds)) {
    throw refuse(
      'duration_not_supported',
      `A duration of ${req.durationSeconds} s is not available; allowed: ${durations.join(', ')} s`,
      'duration',
    );
  }
  const refs = req.referenceImages?.length ?? 0;
  if (refs > VEO_LIMITS.maxReferenceImages) {
    throw refuse('too_many_reference_images', `At most ${VEO_LIMITS.maxReferenceImages} reference images are taken`, 'reference_images');
  }
  if (
    gen !== '2' &&
    (req.resolution === '1080p' || req.resolution === '4k' || refs > 0) &&
    req.durationSeconds !== VEO_LIMITS.fullLengthSeconds
  ) {
    throw refuse('duration_not_supported', `1080p, 4k and reference images render ${VEO_LIMITS.fullLengthSeconds} s only`, 'duration');
  }
  if (gen !== '3.1' && refs > 0)
    throw refuse('reference_images_not_supported', 'Reference images need a Veo 3.1 model', 'reference_images');
  if (gen !== '3.1' && req.lastFrame) throw refuse('last_frame_not_supported', 'A last frame needs a Veo 3.1 model', 'last_frame');
}

const veoImage = (img: VideoImage): VeoImage => ({
  bytesBase64Encoded: Buffer.from(img.data.buffer, img.data.byteOffset, img.data.byteLength).toString('base64'),
  mimeType: img.mediaType,
});

/**
 * The operator's personGeneration for Veo, narrowed to what the Gemini API takes for the input mode:
 * `allow_all` is for text-to-video only; with an image it becomes `allow_adult`.
 */
function personGeneration(req: VideoRequest, configured: VeoPersonGeneration | undefined): VeoPersonGeneration | undefined {
  if (!configured) return undefined;
  const withImage = Boolean(req.firstFrame || req.referenceImages?.length);
  return withImage && configured === 'allow_all' ? 'allow_adult' : configured;
}

/**
 * A canonical request → the predictLongRunning body. generateAudio is not sent: the Gemini API takes no
 * such field (Veo 3 and later always render sound there, Veo 2 never does).
 */
export function convertToGoogleVideo(req: VideoRequest, opts: { personGeneration?: VeoPersonGeneration } = {}): VeoPredictBody {
  const person = personGeneration(req, opts.personGeneration);
  return {
    instances: [
      {
        ...(req.prompt?.trim() ? { prompt: req.prompt } : {}),
        ...(req.firstFrame ? { image: veoImage(req.firstFrame) } : {}),
        ...(req.lastFrame ? { lastFrame: veoImage(req.lastFrame) } : {}),
        ...(req.referenceImages?.length
          ? { referenceImages: req.referenceImages.map((i) => ({ image: veoImage(i), referenceType: 'asset' as const })) }
          : {}),
      },
    ],
    parameters: {
      sampleCount: 1,
      durationSeconds: req.durationSeconds,
      aspectRatio: veoRatio(req),
      resolution: req.resolution,
      ...(req.negativePrompt?.trim() ? { negativePrompt: req.negativePrompt } : {}),
      ...(req.seed !== undefined ? { seed: req.seed } : {}),
      ...(person ? { personGeneration: person } : {}),
    },
  };
}
