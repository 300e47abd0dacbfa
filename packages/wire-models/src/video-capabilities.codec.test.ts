import type { ModelSpec } from '@gateway/core';

type Core = typeof import('@gateway/core');
type Gemini = typeof import('./gemini-models.codec');
type OpenAi = typeof import('./openai-models.codec');

/** core's limits table module, by path: the test swaps it for a changed table */
const TABLE = '../../core/src/video-limits-table';

const spec: ModelSpec = {
  id: 'v',
  kind: 'video',
  family: '2.0',
  tier: 'standard',
  deployments: [],
  pricing: { perVideoSecond: { '480p': 1, '720p': 2, '1080p': 3, '4k': 4 } },
};

/** Loads core and the list codecs with the limits table module replaced by `table` (or the real one). */
function load(table?: Record<string, unknown>): { core: Core; gemini: Gemini; openai: OpenAi } {
  let out!: { core: Core; gemini: Gemini; openai: OpenAi };
  jest.isolateModules(() => {
    if (table) jest.doMock(TABLE, () => ({ VIDEO_FAMILY_LIMITS: Object.freeze(table) }));
    // jest.isolateModules is synchronous: the modules it loads against the swapped table come through require
    /* eslint-disable @typescript-eslint/no-require-imports */
    out = {
      core: require('@gateway/core') as Core,
      gemini: require('./gemini-models.codec') as Gemini,
      openai: require('./openai-models.codec') as OpenAi,
    };
    /* eslint-enable @typescript-eslint/no-require-imports */
  });
  return out;
}

const code = (core: Core, draft: Parameters<Core['validateVideoRequest']>[1]) => {
  try {
    core.validateVideoRequest(spec, draft);
    return 'accepted';
  } catch (e) {
    return (e as { code: string }).code;
  }
};

describe('video capabilities in the model entries', () => {
  afterEach(() => jest.dontMock(TABLE));

  it('both formats carry the limits table and the prices; text models carry none', () => {
    const { gemini, openai } = load();
    expect(openai.encodeOpenAiModel(spec).video_capabilities).toMatchObject({
      supported_durations: [4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
      supported_resolutions: ['480p', '720p', '1080p', '4k'],
      input_modes: ['text', 'first_frame', 'first_last_frame', 'reference_images'],
      max_reference_images: 9,
      generate_audio: true,
      price_per_second: { '480p': 1, '720p': 2, '1080p': 3, '4k': 4 },
    });
    expect(gemini.encodeGeminiModel(spec).videoCapabilities).toMatchObject({
      supportedDurations: [4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
      maxReferenceImages: 9,
      pricePerSecond: { '720p': 2 },
    });
    const text: ModelSpec = { id: 't', kind: 'text', deployments: [] };
    expect('video_capabilities' in openai.encodeOpenAiModel(text)).toBe(false);
    expect('videoCapabilities' in gemini.encodeGeminiModel(text)).toBe(false);
  });

  it('one source: changing the table entry changes validation and both listed capabilities', () => {
    const before = load();
    expect(code(before.core, { prompt: 'p', durationSeconds: 12 })).toBe('accepted');
    expect(code(before.core, { prompt: 'p', generateAudio: true })).toBe('accepted');

    const changed = {
      '2.5': before.core.VIDEO_FAMILY_LIMITS['2.5'],
      '2.0': { minSeconds: 2, maxSeconds: 8, maxReferenceImages: 0, framesRequireAdaptive: true, lastFrame: false, audio: false },
    };
    const after = load(changed);
    const img = { mediaType: 'image/png' as const, data: new Uint8Array([1]), width: 8, height: 8 };
    expect(code(after.core, { prompt: 'p', durationSeconds: 12 })).toBe('invalid_duration');
    expect(code(after.core, { prompt: 'p', durationSeconds: 2 })).toBe('accepted');
    expect(code(after.core, { prompt: 'p', generateAudio: true })).toBe('audio_not_supported');
    expect(code(after.core, { firstFrame: img, lastFrame: img })).toBe('last_frame_not_supported');
    expect(code(after.core, { referenceImages: [img] })).toBe('invalid_reference_images');

    expect(after.openai.encodeOpenAiModel(spec).video_capabilities).toMatchObject({
      supported_durations: [2, 3, 4, 5, 6, 7, 8],
      min_duration_seconds: 2,
      max_duration_seconds: 8,
      generate_audio: false,
      input_modes: ['text', 'first_frame'],
      max_reference_images: 0,
      frames_require_adaptive_ratio: true,
    });
    expect(after.gemini.encodeGeminiModel(spec).videoCapabilities).toMatchObject({
      supportedDurations: [2, 3, 4, 5, 6, 7, 8],
      generateAudio: false,
      inputModes: ['text', 'first_frame'],
    });
  });
});
