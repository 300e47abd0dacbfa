/**
 * What a video model can do, as the model lists show it: read from the same limits table (videoLimitsOf) that
 * validateVideoRequest enforces and from the model's price table, so a list never promises what a create refuses.
 */
import type { ModelSpec } from './catalogue';
import { ASPECT_RATIOS, VIDEO_DEFAULTS, videoLimitsOf, type AspectRatio, type Resolution } from './video-limits';

/** The input modes of the video formats: text alone, a first frame, first and last frames, or reference images. */
export type VideoInputMode = 'text' | 'first_frame' | 'first_last_frame' | 'reference_images';

export interface VideoCapabilities {
  /** every accepted duration, whole seconds from minSeconds to maxSeconds */
  durations: number[];
  minSeconds: number;
  maxSeconds: number;
  resolutions: Resolution[];
  aspectRatios: AspectRatio[];
  /** a soundtrack can be asked for */
  audio: boolean;
  inputModes: VideoInputMode[];
  /** at most this many reference images (0: the mode is not offered) */
  maxReferenceImages: number;
  /** first/last-frame input only with the adaptive ratio */
  framesRequireAdaptiveRatio: boolean;
  /** credits per second of video, by resolution; null when the model has no price table (free) */
  pricePerSecond: Partial<Record<Resolution, number>> | null;
  /** what an absent field becomes */
  defaults: { durationSeconds: number; resolution: Resolution; aspectRatio: AspectRatio; generateAudio: boolean };
}

export function videoCapabilitiesOf(model: ModelSpec): VideoCapabilities {
  const { limits, resolutions } = videoLimitsOf(model);
  const durations: number[] = [];
  for (let s = limits.minSeconds; s <= limits.maxSeconds; s++) durations.push(s);
  const inputModes: VideoInputMode[] = ['text', 'first_frame'];
  if (limits.lastFrame) inputModes.push('first_last_frame');
  if (limits.maxReferenceImages > 0) inputModes.push('reference_images');
  const per = model.pricing?.perVideoSecond;
  return {
    durations,
    minSeconds: limits.minSeconds,
    maxSeconds: limits.maxSeconds,
    resolutions,
    aspectRatios: [...ASPECT_RATIOS],
    audio: limits.audio,
    inputModes,
    maxReferenceImages: limits.maxReferenceImages,
    framesRequireAdaptiveRatio: limits.framesRequireAdaptive,
    // Only the resolutions offered: startup refuses a price table that misses one (missingPrice).
    pricePerSecond: model.pricing ? Object.fromEntries(resolutions.filter((r) => per?.[r] !== undefined).map((r) => [r, per![r]!])) : null,
    defaults: {
      durationSeconds: VIDEO_DEFAULTS.durationSeconds,
      resolution: VIDEO_DEFAULTS.resolution,
      aspectRatio: VIDEO_DEFAULTS.aspectRatio,
      generateAudio: VIDEO_DEFAULTS.generateAudio && limits.audio,
    },
  };
}
