import type { ModelSpec } from './catalogue';
import { resolutionsFor, resolveRatio, validateVideoRequest, videoDimensions, type VideoImage } from './video-limits';

const model = (family: '2.5' | '2.0', tier: 'standard' | 'fast' | 'mini'): ModelSpec => ({
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
