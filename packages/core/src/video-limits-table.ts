/**
 * The video limits table itself, as data, in a module of its own: validation (video-limits.ts), the model
 * lists' capabilities (video-capabilities.ts) and the wire schemas all read this one object, and a test can
 * swap the module to show that a changed entry changes every reader at once.
 */
import type { VideoFamily } from './catalogue';

export interface FamilyLimits {
  minSeconds: number;
  maxSeconds: number;
  maxReferenceImages: number;
  /** first/last-frame input forces adaptive ratio */
  framesRequireAdaptive: boolean;
  /** a last frame may follow the first frame (first-and-last-frame input) */
  lastFrame: boolean;
  /** the model can render a soundtrack (generate_audio); false refuses a request for one */
  audio: boolean;
}

export const VIDEO_FAMILY_LIMITS: Readonly<Record<VideoFamily, FamilyLimits>> = Object.freeze({
  '2.5': { minSeconds: 4, maxSeconds: 30, maxReferenceImages: 30, framesRequireAdaptive: true, lastFrame: true, audio: true },
  '2.0': { minSeconds: 4, maxSeconds: 15, maxReferenceImages: 9, framesRequireAdaptive: false, lastFrame: true, audio: true },
});
