import { createReadStream, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { ffmpegVideoProbe } from './ffmpeg-video-probe';

const FIXTURE = path.join(__dirname, '../../../testkit/src/fake-upstreams/__fixtures__/fake-video.mp4');

describe('ffmpegVideoProbe', () => {
  let scratch: string;
  beforeEach(() => {
    scratch = mkdtempSync(path.join(os.tmpdir(), 'gw-probe-test-'));
  });
  afterEach(() => rmSync(scratch, { recursive: true, force: true }));

  it('measures a stored MP4 (the fake upstreams’ 1 s clip) and leaves no scratch file behind', async () => {
    const probed = await ffmpegVideoProbe(scratch).probe(createReadStream(FIXTURE));
    expect(probed.durationSeconds).toBeGreaterThan(0.9);
    expect(probed.durationSeconds).toBeLessThan(1.2);
    expect(probed.width).toBeGreaterThan(0);
    expect(probed.height).toBeGreaterThan(0);
    expect(readdirSync(scratch)).toEqual([]);
  });

  it('bytes that are not a video are an error (the caller settles on the request), again without leftovers', async () => {
    await expect(ffmpegVideoProbe(scratch).probe(Readable.from([Buffer.from('not a video')]))).rejects.toThrow();
    expect(readdirSync(scratch)).toEqual([]);
  });
});
