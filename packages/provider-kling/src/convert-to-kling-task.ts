import { invalid, type VideoImage, type VideoRequest } from '@gateway/provider-kit';
import type { KlingCreateBody, KlingTaskKind } from './kling-api';

/** What Kling renders, beyond the gateway's own limits table (docs/providers/kling.md). */
export const KLING_LIMITS = Object.freeze({
  /** `mode`: std is 720p, pro is 1080p */
  resolutions: ['720p', '1080p'] as readonly string[],
  durations: [5, 10] as readonly number[],
  /** text2video's aspect_ratio; image2video follows the image */
  ratios: ['16:9', '9:16', '1:1'] as readonly string[],
});

/** Refuses, before anything is sent, what Kling cannot render. */
export function checkKlingRequest(req: VideoRequest): void {
  const l = KLING_LIMITS;
  if (!l.resolutions.includes(req.resolution)) {
    throw invalid(
      'resolution_not_supported',
      `Resolution ${req.resolution} is not available from this model's upstream (Kling); allowed: ${l.resolutions.join(', ')}.`,
      'resolution',
    );
  }
  if (!l.durations.includes(req.durationSeconds)) {
    throw invalid(
      'duration_not_supported',
      `A duration of ${req.durationSeconds} s is not available from this model's upstream (Kling); allowed: ${l.durations.join(', ')} s.`,
      'duration',
    );
  }
  if (req.aspectRatio !== 'adaptive' && !l.ratios.includes(req.aspectRatio)) {
    throw invalid(
      'aspect_ratio_not_supported',
      `Aspect ratio ${req.aspectRatio} is not available from this model's upstream (Kling); allowed: ${l.ratios.join(', ')} or adaptive.`,
      'aspect_ratio',
    );
  }
  if (req.referenceImages?.length) {
    throw invalid(
      'too_many_reference_images',
      "This model's upstream (Kling) takes no reference images; use a first frame.",
      'reference_images',
    );
  }
}

/** Kling takes raw Base64 (no `data:` prefix). */
const base64 = (img: VideoImage) => Buffer.from(img.data.buffer, img.data.byteOffset, img.data.byteLength).toString('base64');

/** A frame turns the task into image2video (its ratio then follows the image). */
export function klingTaskKind(req: VideoRequest): KlingTaskKind {
  return req.firstFrame ? 'image2video' : 'text2video';
}

/** `adaptive` without a frame is Kling's default landscape. */
function klingRatio(req: VideoRequest): '16:9' | '9:16' | '1:1' {
  return req.aspectRatio === '9:16' || req.aspectRatio === '1:1' ? req.aspectRatio : '16:9';
}

export function convertToKlingTask(req: VideoRequest & { upstreamModel: string }): KlingCreateBody {
  const kind = klingTaskKind(req);
  return {
    model_name: req.upstreamModel,
    ...(req.prompt?.trim() ? { prompt: req.prompt } : {}),
    ...(req.firstFrame ? { image: base64(req.firstFrame) } : {}),
    ...(req.lastFrame ? { image_tail: base64(req.lastFrame) } : {}),
    mode: req.resolution === '1080p' ? 'pro' : 'std',
    duration: req.durationSeconds === 10 ? '10' : '5',
    ...(kind === 'text2video' ? { aspect_ratio: klingRatio(req) } : {}),
  };
}
