/**
 * The video capabilities extension of the model entries: `video_capabilities` (snake_case, field names after
 * OpenRouter's video model list) in OpenAI's shape and `videoCapabilities` (camelCase) in Gemini's. Both encode
 * core's VideoCapabilities, so every format lists what the limits table enforces.
 */
import { videoCapabilitiesOf, type ModelSpec } from '@gateway/core';

export function encodeOpenAiVideoCapabilities(m: ModelSpec) {
  const c = videoCapabilitiesOf(m);
  return {
    supported_durations: c.durations,
    min_duration_seconds: c.minSeconds,
    max_duration_seconds: c.maxSeconds,
    supported_resolutions: c.resolutions,
    supported_aspect_ratios: c.aspectRatios,
    generate_audio: c.audio,
    input_modes: c.inputModes,
    max_reference_images: c.maxReferenceImages,
    frames_require_adaptive_ratio: c.framesRequireAdaptiveRatio,
    price_per_second: c.pricePerSecond,
    defaults: {
      duration_seconds: c.defaults.durationSeconds,
      resolution: c.defaults.resolution,
      aspect_ratio: c.defaults.aspectRatio,
      generate_audio: c.defaults.generateAudio,
    },
  };
}

export function encodeGeminiVideoCapabilities(m: ModelSpec) {
  const c = videoCapabilitiesOf(m);
  return {
    supportedDurations: c.durations,
    minDurationSeconds: c.minSeconds,
    maxDurationSeconds: c.maxSeconds,
    supportedResolutions: c.resolutions,
    supportedAspectRatios: c.aspectRatios,
    generateAudio: c.audio,
    inputModes: c.inputModes,
    maxReferenceImages: c.maxReferenceImages,
    framesRequireAdaptiveRatio: c.framesRequireAdaptiveRatio,
    pricePerSecond: c.pricePerSecond,
    defaults: c.defaults,
  };
}

const strings = { type: 'array', items: { type: 'string' } } as const;
const integers = { type: 'array', items: { type: 'integer' } } as const;
const prices = {
  type: ['object', 'null'],
  description: 'Credits per second of video, by resolution; null when the model is free.',
  additionalProperties: { type: 'number' },
} as const;
const inputModes = {
  type: 'array',
  items: { enum: ['text', 'first_frame', 'first_last_frame', 'reference_images'] },
} as const;

/** OpenAPI schemas of the two encodings (models.openapi.ts). */
export const openAiVideoCapabilitiesSchema = {
  type: 'object',
  description: 'Video models only: what a create accepts (the core limits table) and what it costs.',
  properties: {
    supported_durations: integers,
    min_duration_seconds: { type: 'integer' },
    max_duration_seconds: { type: 'integer' },
    supported_resolutions: strings,
    supported_aspect_ratios: strings,
    generate_audio: { type: 'boolean' },
    input_modes: inputModes,
    max_reference_images: { type: 'integer' },
    frames_require_adaptive_ratio: { type: 'boolean' },
    price_per_second: prices,
    defaults: { type: 'object' },
  },
} as const;

export const geminiVideoCapabilitiesSchema = {
  type: 'object',
  description: 'Video models only: what predictLongRunning accepts (the core limits table) and what it costs.',
  properties: {
    supportedDurations: integers,
    minDurationSeconds: { type: 'integer' },
    maxDurationSeconds: { type: 'integer' },
    supportedResolutions: strings,
    supportedAspectRatios: strings,
    generateAudio: { type: 'boolean' },
    inputModes,
    maxReferenceImages: { type: 'integer' },
    framesRequireAdaptiveRatio: { type: 'boolean' },
    pricePerSecond: prices,
    defaults: { type: 'object' },
  },
} as const;
