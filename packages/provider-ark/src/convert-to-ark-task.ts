import { invalid, type VideoImage, type VideoRequest } from '@gateway/provider-kit';
import type { ArkContentItem, ArkCreateTaskBody } from './ark-api';

/** What Seedance renders, beyond the gateway's own limits table (docs/providers/ark.md). */
export const ARK_VIDEO_LIMITS = Object.freeze({
  resolutions: ['480p', '720p', '1080p'] as readonly string[],
  minSeconds: 2,
  maxSeconds: 15,
  maxReferenceImages: 9,
});

/** Refuses, before anything is sent, what Ark cannot render. */
export function checkArkRequest(req: VideoRequest): void {
  const l = ARK_VIDEO_LIMITS;
  if (!l.resolutions.includes(req.resolution)) {
    throw invalid(
      'resolution_not_supported',
      `Resolution ${req.resolution} is not available from this model's upstream (Ark); allowed: ${l.resolutions.join(', ')}.`,
      'resolution',
    );
  }
  if (req.durationSeconds < l.minSeconds || req.durationSeconds > l.maxSeconds) {
    throw invalid(
      'duration_not_supported',
      `A duration of ${req.durationSeconds} s is not available from this model's upstream (Ark); allowed: ${l.minSeconds} to ${l.maxSeconds} s.`,
      'duration',
    );
  }
  if ((req.referenceImages?.length ?? 0) > l.maxReferenceImages) {
    throw invalid(
      'too_many_reference_images',
      `This model's upstream (Ark) takes at most ${l.maxReferenceImages} reference images.`,
      'reference_images',
    );
  }
}

const dataUrl = (img: VideoImage) =>
  `data:${img.mediaType};base64,${Buffer.from(img.data.buffer, img.data.byteOffset, img.data.byteLength).toString('base64')}`;

/** A canonical request → the create body: text, then the images by role (first/last frame, or references). */
export function convertToArkTask(req: VideoRequest & { upstreamModel: string }): ArkCreateTaskBody {
  const content: ArkContentItem[] = [];
  if (req.prompt?.trim()) content.push({ type: 'text', text: req.prompt });
  if (req.firstFrame) content.push({ type: 'image_url', image_url: { url: dataUrl(req.firstFrame) }, role: 'first_frame' });
  if (req.lastFrame) content.push({ type: 'image_url', image_url: { url: dataUrl(req.lastFrame) }, role: 'last_frame' });
  for (const ref of req.referenceImages ?? [])
    content.push({ type: 'image_url', image_url: { url: dataUrl(ref) }, role: 'reference_image' });
  return {
    model: req.upstreamModel,
    content,
    ratio: req.aspectRatio,
    resolution: req.resolution,
    duration: req.durationSeconds,
    generate_audio: req.generateAudio,
    // The gateway serves the video as its own; a provider watermark is an operator choice, off by default.
    watermark: false,
  };
}
