import { validateVideoRequest } from '../video-limits';
import { deliveredShape, resolutionOf } from './delivered-shape';

const request = validateVideoRequest(
  { id: 'v', kind: 'video', family: '2.0', tier: 'standard', deployments: [] },
  { prompt: 'p', durationSeconds: 8, resolution: '1080p', aspectRatio: '9:16' },
);
const stated = { width: 1280, height: 720, durationSeconds: 4.96, fps: 30 };

describe('deliveredShape: the upstream, then the probe, then the request', () => {
  it("the upstream's statement wins; the probe is not run", async () => {
    const probe = jest.fn();
    expect(await deliveredShape(stated, request, probe)).toEqual({ ...stated, source: 'upstream' });
    expect(probe).not.toHaveBeenCalled();
  });

  it('what the statement leaves out is probed from the stored file', async () => {
    const shape = await deliveredShape({ fps: 24 }, request, async () => ({ width: 720, height: 1280, durationSeconds: 3.04, fps: 25 }));
    expect(shape).toEqual({ width: 720, height: 1280, durationSeconds: 3.04, fps: 24, source: 'probe' });
  });

  it('a failed (or absent) probe falls back to what was requested, and says so', async () => {
    const errors: string[] = [];
    const failed = await deliveredShape(
      {},
      request,
      () => Promise.reject(new Error('not a media file')),
      (e) => errors.push(e.message),
    );
    expect(failed).toEqual({ width: 1080, height: 1920, durationSeconds: 8, fps: 24, source: 'requested' });
    expect(errors).toEqual(['not a media file']);
    expect((await deliveredShape({ width: 0, height: NaN }, request)).source).toBe('requested');
  });
});

describe('resolutionOf', () => {
  it.each([
    [1280, 720, '720p'],
    [1280, 704, '720p'],
    [720, 1280, '720p'],
    [864, 480, '480p'],
    [960, 540, '480p'],
    [1920, 1072, '1080p'],
    [3840, 2160, '4k'],
    [640, 360, '480p'],
  ] as const)('%i×%i → %s', (width, height, r) => {
    expect(resolutionOf({ width, height })).toBe(r);
  });
});
