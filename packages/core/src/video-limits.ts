/**
 * The video limits of the seed, once, as data. Every video wire format reads this table
 * through validateVideoRequest; none keeps its own copy.
 */
import { invalid } from './errors';
import type { ModelSpec, VideoFamily, VideoTier } from './catalogue';
import type { ImageInput } from './image';
import { VIDEO_FAMILY_LIMITS, type FamilyLimits } from './video-limits-table';

export { VIDEO_FAMILY_LIMITS, type FamilyLimits } from './video-limits-table';

export const RESOLUTIONS = ['480p', '720p', '1080p', '4k'] as const;
export type Resolution = (typeof RESOLUTIONS)[number];
export const ASPECT_RATIOS = ['adaptive', '16:9', '4:3', '1:1', '3:4', '9:16', '21:9'] as const;
export type AspectRatio = (typeof ASPECT_RATIOS)[number];

export const VIDEO_DEFAULTS = Object.freeze({
  durationSeconds: 5,
  resolution: '720p' as Resolution,
  aspectRatio: 'adaptive' as AspectRatio,
  generateAudio: true,
  fps: 24,
  /** seconds a task may take before it expires (documented in docs/video.md) */
  executionExpiresAfter: 48 * 3600,
  retentionSeconds: 7 * 24 * 3600,
});

/** Resolutions per (family, tier): 4k only on standard 2.0; no 1080p on fast and mini. */
export function resolutionsFor(family: VideoFamily, tier: VideoTier): Resolution[] {
  return RESOLUTIONS.filter((r) => {
    if (r === '4k') return family === '2.0' && tier === 'standard';
    if (r === '1080p') return tier === 'standard';
    return true;
  });
}

export type VideoImage = ImageInput;

/** What a wire format decoded, before defaults and limits. */
export interface VideoRequestDraft {
  prompt?: string;
  firstFrame?: VideoImage;
  lastFrame?: VideoImage;
  referenceImages?: VideoImage[];
  durationSeconds?: number;
  resolution?: string;
  aspectRatio?: string;
  generateAudio?: boolean;
  fps?: number;
  /** wire-level field names, so messages name what the caller sent */
  fieldNames?: Partial<
    Record<'durationSeconds' | 'resolution' | 'aspectRatio' | 'referenceImages' | 'firstFrame' | 'lastFrame' | 'prompt', string>
  >;
}

export interface VideoRequest {
  model: string;
  prompt?: string;
  firstFrame?: VideoImage;
  lastFrame?: VideoImage;
  referenceImages?: VideoImage[];
  durationSeconds: number;
  resolution: Resolution;
  aspectRatio: AspectRatio;
  generateAudio: boolean;
  fps: number;
  /** a remix: a new take, with this prompt, of an earlier task's video rendered by the same upstream (its operation) */
  remixOf?: { taskId: string; operation: string };
  /** what the video should avoid; sent by the adapters whose upstream takes one (no inbound format sets it yet) */
  negativePrompt?: string;
  /** a generation seed, for upstreams that take one (no inbound format sets it yet) */
  seed?: number;
}

/** The table entry and resolutions a model is held to: what validation checks and what the model lists show. */
export function videoLimitsOf(model: ModelSpec): { family: VideoFamily; tier: VideoTier; limits: FamilyLimits; resolutions: Resolution[] } {
  const family = model.family ?? '2.0';
  const tier = model.tier ?? 'standard';
  return { family, tier, limits: VIDEO_FAMILY_LIMITS[family], resolutions: resolutionsFor(family, tier) };
}

/** What each rule of validateVideoRequest reads: the model's table entry, and the request's own field names. */
interface HeldTo {
  model: ModelSpec;
  family: VideoFamily;
  tier: VideoTier;
  limits: FamilyLimits;
  resolutions: Resolution[];
  name(k: keyof NonNullable<VideoRequestDraft['fieldNames']>): string;
}

/** Applies defaults and every rule of the limits table; throws invalid_request with a stable code. */
export function validateVideoRequest(model: ModelSpec, draft: VideoRequestDraft): VideoRequest {
  const held: HeldTo = { model, ...videoLimitsOf(model), name: (k) => draft.fieldNames?.[k] ?? k };
  checkInputMode(held, draft);
  const durationSeconds = checkDuration(held, draft);
  const resolution = checkResolution(held, draft);
  const aspectRatio = checkAspectRatio(held, draft);
  if (draft.generateAudio === true && !held.limits.audio) {
    throw invalid(
      'audio_not_supported',
      `${model.id} (family ${held.family}) cannot generate audio; send generate_audio false or leave it out.`,
    );
  }
  return {
    model: model.id,
    prompt: draft.prompt,
    firstFrame: draft.firstFrame,
    lastFrame: draft.lastFrame,
    referenceImages: draft.referenceImages,
    durationSeconds,
    resolution,
    aspectRatio,
    generateAudio: draft.generateAudio ?? (VIDEO_DEFAULTS.generateAudio && held.limits.audio),
    fps: draft.fps ?? VIDEO_DEFAULTS.fps,
  };
}

/** One input mode (text, first(+last) frame, or reference images) within what the family takes; text needs a prompt. */
function checkInputMode({ model, family, limits, name }: HeldTo, draft: VideoRequestDraft): void {
  const refs = draft.referenceImages;
  if (draft.lastFrame && !draft.firstFrame) {
    throw invalid(
      'last_frame_requires_first_frame',
      `${name('lastFrame')} requires a first frame (${name('firstFrame')}).`,
      name('lastFrame'),
    );
  }
  if (draft.lastFrame && !limits.lastFrame) {
    throw invalid(
      'last_frame_not_supported',
      `${model.id} (family ${family}) does not take a last frame (${name('lastFrame')}); send a first frame only.`,
      name('lastFrame'),
    );
  }
  if (refs !== undefined) {
    if (draft.firstFrame || draft.lastFrame) {
      throw invalid(
        'reference_images_with_frames',
        `${name('referenceImages')} cannot be combined with a first or last frame; use one input mode.`,
        name('referenceImages'),
      );
    }
    if (refs.length < 1 || refs.length > limits.maxReferenceImages) {
      throw invalid(
        'invalid_reference_images',
        `${name('referenceImages')} must hold 1 to ${limits.maxReferenceImages} images for ${model.id} (family ${family}); got ${refs.length}.`,
        name('referenceImages'),
      );
    }
  }
  const hasImage = Boolean(draft.firstFrame || refs?.length);
  if (!hasImage && !draft.prompt?.trim()) {
    throw invalid('missing_prompt', `A non-empty ${name('prompt')} is required for text-only generation.`, name('prompt'));
  }
}

function checkDuration({ model, family, limits, name }: HeldTo, draft: VideoRequestDraft): number {
  const duration = draft.durationSeconds ?? VIDEO_DEFAULTS.durationSeconds;
  if (!Number.isInteger(duration) || duration < limits.minSeconds || duration > limits.maxSeconds) {
    throw invalid(
      'invalid_duration',
      `${name('durationSeconds')} must be a whole number of seconds from ${limits.minSeconds} to ${limits.maxSeconds} for ${model.id} (family ${family}); got ${String(draft.durationSeconds)}.`,
      name('durationSeconds'),
    );
  }
  return duration;
}

function checkResolution({ model, family, tier, resolutions, name }: HeldTo, draft: VideoRequestDraft): Resolution {
  const resolution = (draft.resolution ?? VIDEO_DEFAULTS.resolution) as Resolution;
  if (!resolutions.includes(resolution)) {
    throw invalid(
      'invalid_resolution',
      `${name('resolution')} ${JSON.stringify(draft.resolution)} is not available on ${model.id} (family ${family}, tier ${tier}); allowed: ${resolutions.join(', ')}.`,
      name('resolution'),
    );
  }
  return resolution;
}

/** A ratio from the closed list; families that need it take first/last frames only with "adaptive". */
function checkAspectRatio({ model, family, limits, name }: HeldTo, draft: VideoRequestDraft): AspectRatio {
  const ratio = (draft.aspectRatio ?? VIDEO_DEFAULTS.aspectRatio) as AspectRatio;
  if (!ASPECT_RATIOS.includes(ratio)) {
    throw invalid(
      'invalid_aspect_ratio',
      `${name('aspectRatio')} ${JSON.stringify(draft.aspectRatio)} is not supported; allowed: ${ASPECT_RATIOS.join(', ')}.`,
      name('aspectRatio'),
    );
  }
  if (limits.framesRequireAdaptive && draft.firstFrame && ratio !== 'adaptive') {
    throw invalid(
      'frames_require_adaptive_ratio',
      `${model.id} (family ${family}) requires ${name('aspectRatio')} "adaptive" with first/last-frame input; got ${JSON.stringify(ratio)}.`,
      name('aspectRatio'),
    );
  }
  return ratio;
}

/** Pixel size of a resolution at a concrete ratio; adaptive falls back to 16:9 or the first frame's shape. */
export function videoDimensions(resolution: Resolution, ratio: Exclude<AspectRatio, 'adaptive'>): { width: number; height: number } {
  const short = { '480p': 480, '720p': 720, '1080p': 1080, '4k': 2160 }[resolution];
  const [a = 1, b = 1] = ratio.split(':').map(Number);
  const even = (n: number) => Math.round(n / 2) * 2;
  return a >= b ? { width: even((short * a) / b), height: short } : { width: short, height: even((short * b) / a) };
}

/** The concrete ratio an adaptive request resolves to. */
export function resolveRatio(ratio: AspectRatio, frame?: { width: number; height: number }): Exclude<AspectRatio, 'adaptive'> {
  if (ratio !== 'adaptive') return ratio;
  if (!frame) return '16:9';
  const r = frame.width / frame.height;
  const candidates = ASPECT_RATIOS.filter((x): x is Exclude<AspectRatio, 'adaptive'> => x !== 'adaptive');
  let best: Exclude<AspectRatio, 'adaptive'> = '16:9';
  for (const c of candidates) {
    const [a = 1, b = 1] = c.split(':').map(Number);
    const [ba = 1, bb = 1] = best.split(':').map(Number);
    if (Math.abs(a / b - r) < Math.abs(ba / bb - r)) best = c;
  }
  return best;
}
