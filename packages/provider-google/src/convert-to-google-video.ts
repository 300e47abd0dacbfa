import { invalid, resolveRatio, videoDimensions, type VideoImage, type VideoRequest } from '@gateway/core';
import type { VeoImage, VeoPredictBody } from './google-video-api';

/** What Veo renders, beyond the gateway's own limits table (docs/providers/veo.md). */
export const VEO_LIMITS = Object.freeze({
  resolutions: ['720p', '1080p'] as readonly string[],
  ratios: ['16:9', '9:16'] as readonly string[],
  maxReferenceImages: 3,
});

/** Veo 2 renders 5–8 s; Veo 3 and later 4, 6 or 8 s. */
export function veoDurations(upstreamModel: string): number[] {
  return /veo-2/.test(upstreamModel) ? [5, 6, 7, 8] : [4, 6, 8];
}

/** `adaptive` becomes the Veo ratio nearest to the first frame's shape (landscape without one). */
export function veoRatio(req: VideoRequest): '16:9' | '9:16' {
  if (req.aspectRatio === '9:16' || req.aspectRatio === '16:9') return req.aspectRatio;
  const frame = req.firstFrame ?? req.referenceImages?.[0];
  return frame && frame.height > frame.width ? '9:16' : '16:9';
}

/** Refuses, before anything is sent, what Veo cannot render. */
export function checkVeoRequest(req: VideoRequest & { upstreamModel: string }): void {
  if (!VEO_LIMITS.resolutions.includes(req.resolution)) {
    throw invalid(
      'resolution_not_supported',
      `Resolution ${req.resolution} is not available from this model's upstream (Veo); allowed: ${VEO_LIMITS.resolutions.join(', ')}.`,
      'resolution',
    );
  }
  if (req.aspectRatio !== 'adaptive' && !VEO_LIMITS.ratios.includes(req.aspectRatio)) {
    throw invalid(
      'aspect_ratio_not_supported',
      `Aspect ratio ${req.aspectRatio} is not available from this model's upstream (Veo); allowed: ${VEO_LIMITS.ratios.join(', ')} or adaptive.`,
      'aspect_ratio',
    );
  }
  const durations = veoDurations(req.upstreamModel);
  if (!durations.includes(req.durationSeconds)) {
    throw invalid(
      'duration_not_supported',
      `A duration of ${req.durationSeconds} s is not available from this model's upstream (Veo); allowed: ${durations.join(', ')} s.`,
      'duration',
    );
  }
  if ((req.referenceImages?.length ?? 0) > VEO_LIMITS.maxReferenceImages) {
    throw invalid(
      'too_many_reference_images',
      `This model's upstream (Veo) takes at most ${VEO_LIMITS.maxReferenceImages} reference images.`,
      'reference_images',
    );
  }
}

const veoImage = (img: VideoImage): VeoImage => ({
  bytesBase64Encoded: Buffer.from(img.data.buffer, img.data.byteOffset, img.data.byteLength).toString('base64'),
  mimeType: img.mediaType,
});

/** A canonical request → the predictLongRunning body. generateAudio is not sent: the Gemini API takes no such field. */
export function convertToGoogleVideo(req: VideoRequest): VeoPredictBody {
  return {
    instances: [
      {
        ...(req.prompt?.trim() ? { prompt: req.prompt } : {}),
        ...(req.firstFrame ? { image: veoImage(req.firstFrame) } : {}),
        ...(req.lastFrame ? { lastFrame: veoImage(req.lastFrame) } : {}),
        ...(req.referenceImages?.length
          ? { referenceImages: req.referenceImages.map((i) => ({ image: veoImage(i), referenceType: 'ASSET' as const })) }
          : {}),
      },
    ],
    parameters: { sampleCount: 1, durationSeconds: req.durationSeconds, aspectRatio: veoRatio(req), resolution: req.resolution },
  };
}

/** The pixel size Veo delivers for a request (the operation does not say). */
export function veoShape(req: VideoRequest): { width: number; height: number } {
  return videoDimensions(req.resolution, resolveRatio(veoRatio(req)));
}
