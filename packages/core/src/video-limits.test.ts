import type { ModelSpec, VideoFamily, VideoTier } from './catalogue';
import {
  RESOLUTIONS,
  resolutionsFor,
  resolveRatio,
  validateVideoRequest,
  VIDEO_FAMILY_LIMITS,
  videoDimensions,
  type VideoImage,
} from './video-limits';

const model = (family: VideoFamily, tier: VideoTier): ModelSpec => ({
  id: `m-${family}-${tier}`,
  kind: 'video',
  family,
  tier,
  deployments: [],
});
const img: VideoImage = { mediaType: 'image/png', data: new Uint8Array([1]), width: 1280, height: 720 };
const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return (e as { code: string }).code;
  }
  return 'accepted';
};
const messageOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('accepted');
};
/** every (family, tier) a model may declare: the wire formats test one field each, this file every combination */
const MODELS = (['2.5', '2.0'] as const).flatMap((f) => (['standard', 'fast', 'mini'] as const).map((t) => [f, t] as const));

describe('video limits table', () => {
  it('applies the defaults: 5 s, 720p, adaptive, audio on, 24 fps', () => {
    expect(validateVideoRequest(model('2.0', 'standard'), { prompt: 'a cat' })).toMatchObject({
      durationSeconds: 5,
      resolution: '720p',
      aspectRatio: 'adaptive',
      generateAudio: true,
      fps: 24,
    });
  });

  it.each([
    ['2.5', 4, 'accepted'],
    ['2.5', 30, 'accepted'],
    ['2.5', 31, 'invalid_duration'],
    ['2.5', 3, 'invalid_duration'],
    ['2.0', 15, 'accepted'],
    ['2.0', 16, 'invalid_duration'],
    ['2.0', 4.5, 'invalid_duration'],
  ] as const)('family %s, %s s → %s', (family, d, expected) => {
    expect(code(() => validateVideoRequest(model(family, 'standard'), { prompt: 'p', durationSeconds: d }))).toBe(expected);
  });

  it.each(MODELS)('family %s, tier %s: every duration edge, resolution and reference count of the table', (family, tier) => {
    const m = model(family, tier);
    const { minSeconds: min, maxSeconds: max, maxReferenceImages: refs } = VIDEO_FAMILY_LIMITS[family];
    for (const d of [min, max]) expect(code(() => validateVideoRequest(m, { prompt: 'p', durationSeconds: d }))).toBe('accepted');
    for (const d of [min - 1, max + 1, min + 0.5]) {
      expect(code(() => validateVideoRequest(m, { prompt: 'p', durationSeconds: d }))).toBe('invalid_duration');
    }
    const tooLong = messageOf(() => validateVideoRequest(m, { prompt: 'p', durationSeconds: max + 1 }));
    expect(tooLong).toContain(`${min} to ${max}`);
    expect(tooLong).toContain(m.id);

    const allowed = resolutionsFor(family, tier);
    for (const r of RESOLUTIONS) {
      expect(code(() => validateVideoRequest(m, { prompt: 'p', resolution: r }))).toBe(
        allowed.includes(r) ? 'accepted' : 'invalid_resolution',
      );
    }
    expect(messageOf(() => validateVideoRequest(m, { prompt: 'p', resolution: '8k' }))).toContain(`allowed: ${allowed.join(', ')}`);

    expect(code(() => validateVideoRequest(m, { referenceImages: Array(refs).fill(img) }))).toBe('accepted');
    for (const n of [0, refs + 1]) {
      expect(code(() => validateVideoRequest(m, { referenceImages: Array(n).fill(img) }))).toBe('invalid_reference_images');
    }
    expect(messageOf(() => validateVideoRequest(m, { referenceImages: Array(refs + 1).fill(img) }))).toContain(`1 to ${refs}`);
  });

  it('a family without a last frame or audio refuses them; audio then defaults to off', () => {
    const limited = { ...VIDEO_FAMILY_LIMITS['2.0'], lastFrame: false, audio: false };
    let validate!: typeof validateVideoRequest;
    jest.isolateModules(() => {
      jest.doMock('./video-limits-table', () => ({ VIDEO_FAMILY_LIMITS: Object.freeze({ ...VIDEO_FAMILY_LIMITS, '2.0': limited }) }));
      // isolateModules is synchronous, so the module loaded against the swapped table comes through require
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      validate = (require('./video-limits') as typeof import('./video-limits')).validateVideoRequest;
    });
    const m = model('2.0', 'standard');
    expect(code(() => validate(m, { firstFrame: img, lastFrame: img }))).toBe('last_frame_not_supported');
    expect(code(() => validate(m, { prompt: 'p', generateAudio: true }))).toBe('audio_not_supported');
    expect(validate(m, { prompt: 'p' }).generateAudio).toBe(false);
    expect(code(() => validateVideoRequest(m, { firstFrame: img, lastFrame: img }))).toBe('accepted'); // the real table
  });

  it('resolutions per family and tier', () => {
    expect(resolutionsFor('2.0', 'standard')).toEqual(['480p', '720p', '1080p', '4k']);
    expect(resolutionsFor('2.5', 'standard')).toEqual(['480p', '720p', '1080p']);
    expect(resolutionsFor('2.0', 'fast')).toEqual(['480p', '720p']);
    expect(resolutionsFor('2.0', 'mini')).toEqual(['480p', '720p']);
    expect(code(() => validateVideoRequest(model('2.0', 'fast'), { prompt: 'p', resolution: '1080p' }))).toBe('invalid_resolution');
    expect(code(() => validateVideoRequest(model('2.5', 'standard'), { prompt: 'p', resolution: '4k' }))).toBe('invalid_resolution');
  });

  it('input modes', () => {
    const m = model('2.0', 'standard');
    expect(code(() => validateVideoRequest(m, { lastFrame: img }))).toBe('last_frame_requires_first_frame');
    expect(code(() => validateVideoRequest(m, { firstFrame: img, referenceImages: [img] }))).toBe('reference_images_with_frames');
    expect(code(() => validateVideoRequest(m, { referenceImages: Array(10).fill(img) }))).toBe('invalid_reference_images');
    expect(code(() => validateVideoRequest(m, { referenceImages: Array(9).fill(img) }))).toBe('accepted');
    expect(code(() => validateVideoRequest(model('2.5', 'standard'), { referenceImages: Array(30).fill(img) }))).toBe('accepted');
    expect(code(() => validateVideoRequest(m, {}))).toBe('missing_prompt');
    expect(code(() => validateVideoRequest(m, { firstFrame: img }))).toBe('accepted');
  });

  it('2.5 with frames requires adaptive; 2.0 does not', () => {
    expect(code(() => validateVideoRequest(model('2.5', 'standard'), { firstFrame: img, aspectRatio: '16:9' }))).toBe(
      'frames_require_adaptive_ratio',
    );
    expect(code(() => validateVideoRequest(model('2.0', 'standard'), { firstFrame: img, aspectRatio: '16:9' }))).toBe('accepted');
    expect(code(() => validateVideoRequest(model('2.0', 'standard'), { prompt: 'p', aspectRatio: '2:1' }))).toBe('invalid_aspect_ratio');
  });

  it('messages name the wire field and the allowed range', () => {
    try {
      validateVideoRequest(model('2.0', 'standard'), {
        prompt: 'p',
        durationSeconds: 20,
        fieldNames: { durationSeconds: 'parameters.durationSeconds' },
      });
      throw new Error('accepted');
    } catch (e) {
      expect((e as Error).message).toContain('parameters.durationSeconds');
      expect((e as Error).message).toContain('4 to 15');
      expect((e as { param: string }).param).toBe('parameters.durationSeconds');
    }
  });

  it('dimensions and adaptive ratio', () => {
    expect(videoDimensions('720p', '16:9')).toEqual({ width: 1280, height: 720 });
    expect(videoDimensions('720p', '9:16')).toEqual({ width: 720, height: 1280 });
    expect(videoDimensions('1080p', '1:1')).toEqual({ width: 1080, height: 1080 });
    expect(resolveRatio('adaptive')).toBe('16:9');
    expect(resolveRatio('adaptive', { width: 720, height: 1280 })).toBe('9:16');
    expect(resolveRatio('4:3', { width: 720, height: 1280 })).toBe('4:3');
  });
});
