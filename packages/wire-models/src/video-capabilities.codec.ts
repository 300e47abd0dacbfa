/**
 * The video capabilities extension of the model entries: `videoCapabilities` (camelCase) in Gemini's shape and
 * `video_capabilities` (snake_case, field names after OpenRouter's video model list) in OpenAI's. Both encode core's
 * VideoCapabilities under the same names in the two cases, so every format lists what the limits table enforces.
 */
import { videoCapabilitiesOf, type ModelSpec } from '@gateway/core';

const snakeCase = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const snakeKeys = (o: object): Record<string, unknown> => Object.fromEntries(Object.entries(o).map(([k, v]) => [snakeCase(k), v]));

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

/** Gemini's fields in snake_case, `defaults` too; price keys are resolutions and stay as they are. */
export function encodeOpenAiVideoCapabilities(m: ModelSpec) {
  const fields = encodeGeminiVideoCapabilities(m);
  return { ...snakeKeys(fields), defaults: snakeKeys(fields.defaults) };
}

const strings = { type: 'array', items: { type: 'string' } } as const;
const integers = { type: 'array', items: { type: 'integer' } } as const;

const geminiProperties = {
  supportedDurations: integers,
  minDurationSeconds: { type: 'integer' },
  maxDurationSeconds: { type: 'integer' },
  supportedResolutions: strings,
  supportedAspectRatios: strings,
  generateAudio: { type: 'boolean' },
  inputModes: { type: 'array', items: { enum: ['text', 'first_frame', 'first_last_frame', 'reference_images'] } },
  maxReferenceImages: { type: 'integer' },
  framesRequireAdaptiveRatio: { type: 'boolean' },
  pricePerSecond: {
    type: ['object', 'null'],
    description: 'Credits per second of video, by resolution; null when the model is free.',
    additionalProperties: { type: 'number' },
  },
  defaults: { type: 'object' },
} as const;

/** OpenAPI schemas of the two encodings (models.openapi.ts). */
export const openAiVideoCapabilitiesSchema = {
  type: 'object',
  description: 'Video models only: what a create accepts (the core limits table) and what it costs.',
  properties: snakeKeys(geminiProperties),
} as const;

export const geminiVideoCapabilitiesSchema = {
  type: 'object',
  description: 'Video models only: what predictLongRunning accepts (the core limits table) and what it costs.',
  properties: geminiProperties,
} as const;
