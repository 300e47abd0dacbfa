import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { eventually } from '@gateway/testkit';
import os from 'node:os';
import path from 'node:path';
// @google/genai 3.x offers generateVideos on Vertex only; 2.x, the last major that creates Veo videos on the Gemini
// API, stays in the suite for it (and for its default, /v1beta). 3.x's polling and download: compat/genai-v3.compat.test.ts.
import { ApiError, GoogleGenAI, type GenerateVideosOperation } from 'google-genai-v2';
import { BETA_KEY, startTestGateway, type TestGateway } from '../support/test-gateway';
import { isMp4, mp4DurationSeconds, pngImage } from '../support/video-fixtures';

let gw: TestGateway;
let ai: GoogleGenAI;
let dir: string;
beforeAll(async () => {
  // PUBLIC_BASE_URL is https (the test gateway's default): the SDK only parses https:// video URIs, then calls its own baseUrl.
  gw = await startTestGateway({ env: { publicBaseUrl: 'https://gateway.test' } });
  await gw.startBackground();
  // Jest's vm context lacks Node's undici dispatcher; handing the SDK the global fetch changes nothing on the wire.
  ai = new GoogleGenAI({ apiKey: BETA_KEY, httpOptions: { baseUrl: gw.url, fetch: (url, init) => fetch(url, init) } });
  dir = mkdtempSync(path.join(os.tmpdir(), 'genai-video-'));
});
afterAll(async () => {
  await gw.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function untilDone(op: GenerateVideosOperation): Promise<GenerateVideosOperation> {
  await eventually(
    async () => {
      if (!op.done) op = await ai.operations.getVideosOperation({ operation: op });
      if (!op.done) throw new Error(`operation ${op.name} not done in time`);
    },
    25_000,
    200,
  );
  return op;
}

describe('@google/genai video generation against the gateway', () => {
  it('generateVideos → getVideosOperation until done → files.download gives an MP4 of the requested duration', async () => {
    let op = await ai.models.generateVideos({
      model: 'sim-video-2.5',
      source: { prompt: 'a paper boat on a pond' },
      config: { durationSeconds: 4, aspectRatio: '16:9', resolution: '720p', numberOfVideos: 1 },
    });
    expect(op.name).toMatch(/^models\/sim-video-2\.5\/operations\/[a-z0-9]+$/);
    op = await untilDone(op);
    expect(op.error).toBeUndefined();
    const video = op.response?.generatedVideos?.[0]?.video;
    expect(video?.mimeType).toBe('video/mp4');
    expect(video?.uri).toMatch(/^https:\/\/gateway\.test\/v1beta\/files\/[a-z0-9]+:download\?alt=media$/);
    const file = path.join(dir, 'boat.mp4');
    await ai.files.download({ file: video!, downloadPath: file });
    const bytes = readFileSync(file);
    expect(isMp4(bytes)).toBe(true);
    expect(mp4DurationSeconds(bytes)).toBeCloseTo(4, 0);
  });

  it('an image-to-video request with a first frame runs to completion', async () => {
    let op = await ai.models.generateVideos({
      model: 'sim-video-2.0-fast',
      source: { prompt: 'the scene comes alive', image: { imageBytes: pngImage(1280, 720).toString('base64'), mimeType: 'image/png' } },
      config: { durationSeconds: 4 },
    });
    op = await untilDone(op);
    expect(op.response?.generatedVideos).toHaveLength(1);
  });

  it('a refused request surfaces as an ApiError with the {code,message} body', async () => {
    const err = await ai.models
      .generateVideos({ model: 'sim-video-2.0', source: { prompt: 'too long' }, config: { durationSeconds: 16 } })
      .catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(400);
    expect(JSON.parse((err as ApiError).message)).toEqual({ code: 'invalid_duration', message: expect.stringContaining('4 to 15') });
  });
});
