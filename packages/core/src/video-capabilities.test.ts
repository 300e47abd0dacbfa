import type { ModelSpec } from './catalogue';
import { videoCapabilitiesOf } from './video-capabilities';
import { ASPECT_RATIOS, RESOLUTIONS, validateVideoRequest, type VideoImage } from './video-limits';

const model = (family: '2.5' | '2.0', tier: 'standard' | 'fast' | 'mini', pricing?: ModelSpec['pricing']): ModelSpec => ({
  id: `m-${family}-${tier}`,
  kind: 'video',
  family,
  tier,
  deployments: [],
  pricing,
});
const img: VideoImage = { mediaType: 'image/png', data: new Uint8Array([1]), width: 1280, height: 720 };
const accepts = (m: ModelSpec, draft: Parameters<typeof validateVideoRequest>[1]) => {
  try {
    validateVideoRequest(m, draft);
    return true;
  } catch {
    return false;
  }
};

describe('video capabilities: what the lists show is what validation accepts', () => {
  it.each([
    ['2.5', 'standard'],
    ['2.0', 'standard'],
    ['2.0', 'fast'],
    ['2.0', 'mini'],
  ] as const)('family %s, tier %s', (family, tier) => {
    const m = model(family, tier);
    const c = videoCapabilitiesOf(m);
    for (let s = 1; s <= 40; s++) expect(accepts(m, { prompt: 'p', durationSeconds: s })).toBe(c.durations.includes(s));
    for (const r of RESOLUTIONS) expect(accepts(m, { prompt: 'p', resolution: r })).toBe(c.resolutions.includes(r));
    for (const a of ASPECT_RATIOS) expect(accepts(m, { prompt: 'p', aspectRatio: a })).toBe(c.aspectRatios.includes(a));
    expect(accepts(m, { referenceImages: Array(c.maxReferenceImages).fill(img) })).toBe(true);
    expect(accepts(m, { referenceImages: Array(c.maxReferenceImages + 1).fill(img) })).toBe(false);
    expect(accepts(m, { firstFrame: img, lastFrame: img })).toBe(c.inputModes.includes('first_last_frame'));
    expect(accepts(m, { prompt: 'p', generateAudio: true })).toBe(c.audio);
    expect(accepts(m, { firstFrame: img, aspectRatio: '16:9' })).toBe(!c.framesRequireAdaptiveRatio);
    expect(c.inputModes.slice(0, 2)).toEqual(['text', 'first_frame']);
    expect(validateVideoRequest(m, { prompt: 'p' })).toMatchObject(c.defaults);
  });

  it('prices come from the model price table, per offered resolution; a free model says null', () => {
    const priced = model('2.0', 'fast', { perVideoSecond: { '480p': 0.05, '720p': 0.1 } });
    expect(videoCapabilitiesOf(priced).pricePerSecond).toEqual({ '480p': 0.05, '720p': 0.1 });
    expect(videoCapabilitiesOf(model('2.0', 'fast')).pricePerSecond).toBeNull();
  });
});
