import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GenerateVideosOperation, GoogleGenAI } from '@google/genai';
import { eventually } from '@gateway/testkit';
import { isMp4 } from '../support/video-fixtures';
import type { TestGateway } from '../support/test-gateway';
import { COMPAT_KEY, startZeroConfigGateway } from './zero-config-gateway';

// @google/genai 3.x as a newcomer configures it: only httpOptions.baseUrl, so the SDK's own default version (/v1).
let gw: TestGateway;
let ai: GoogleGenAI;
let dir: string;
const paths: string[] = [];
beforeAll(async () => {
  gw = await startZeroConfigGateway();
  // https: the SDK's files.download takes the file id only from an https uri, then calls its own baseUrl
  gw.env.publicBaseUrl = 'https://gateway.test';
  await gw.startBackground(); // the video worker
  // Jest's vm context lacks Node's undici dispatcher: the SDK gets the global fetch, which also records each path.
  const recording: typeof fetch = (url, init) => {
    paths.push(new URL(url instanceof Request ? url.url : String(url)).pathname);
    return fetch(url, init);
  };
  ai = new GoogleGenAI({ apiKey: COMPAT_KEY, httpOptions: { baseUrl: gw.url, fetch: recording } });
  dir = mkdtempSync(path.join(os.tmpdir(), 'genai-v3-'));
});
afterAll(async () => {
  await gw.stop();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  paths.length = 0;
});

describe('@google/genai 3.x with only httpOptions.baseUrl', () => {
  it('generateContent', async () => {
    const r = await ai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'Hello from the newest SDK' });
    expect(r.text).toContain('Hello from the newest SDK');
    expect(r.usageMetadata?.promptTokenCount).toBeGreaterThan(0);
    expect(paths).toEqual(['/v1/models/gemini-2.5-flash:generateContent']);
  });

  it('generateContentStream: the chunks make the answer', async () => {
    let text = '';
    for await (const chunk of await ai.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'Stream to me' }))
      text += chunk.text ?? '';
    expect(text).toContain('Stream to me');
    expect(paths).toEqual(['/v1/models/gemini-2.5-flash:streamGenerateContent']);
  });

  it('countTokens', async () => {
    const r = await ai.models.countTokens({ model: 'gemini-2.5-flash', contents: 'Count these words please' });
    expect(r.totalTokens).toBeGreaterThan(0);
    expect(paths).toEqual(['/v1/models/gemini-2.5-flash:countTokens']);
  });

  it("models.list and models.get answer with Gemini's shape on the shared /v1/models", async () => {
    const names: string[] = [];
    for await (const m of await ai.models.list({ config: { pageSize: 2 } })) names.push(m.name!);
    expect(names).toContain('models/sim-chat');
    expect(new Set(names).size).toBe(names.length);
    const one = await ai.models.get({ model: 'sim-chat' });
    expect(one.name).toBe('models/sim-chat');
    expect(one.supportedActions).toContain('generateContent');
    expect(paths.every((p) => p === '/v1/models' || p === '/v1/models/sim-chat')).toBe(true);
  });

  it('a video operation: created on /v1 (3.x creates Veo videos on Vertex only), polled and downloaded by the SDK', async () => {
    // What @ai-sdk/google, curl or SDK 2.x send; 3.x's generateVideos refuses the Gemini API before sending anything.
    const created = await fetch(`${gw.url}/v1/models/veo-3.1-generate-preview:predictLongRunning`, {
      method: 'POST',
      headers: { 'x-goog-api-key': COMPAT_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ instances: [{ prompt: 'a cat on a piano' }], parameters: { durationSeconds: 4 } }),
    });
    expect(created.status).toBe(200);
    let op: GenerateVideosOperation = Object.assign(new GenerateVideosOperation(), {
      name: ((await created.json()) as { name: string }).name,
    });
    await eventually(
      async () => {
        op = await ai.operations.getVideosOperation({ operation: op });
        if (!op.done) throw new Error(`operation ${op.name} not done in time`);
      },
      25_000,
      200,
    );
    expect(op.error).toBeUndefined();
    const video = op.response?.generatedVideos?.[0]?.video;
    expect(video?.mimeType).toBe('video/mp4');
    const file = path.join(dir, 'cat.mp4');
    await ai.files.download({ file: video!, downloadPath: file });
    expect(isMp4(readFileSync(file))).toBe(true);
    const id = op.name!.split('/').pop();
    expect(paths).toContain(`/v1/${op.name}`);
    expect(paths).toContain(`/v1/files/${id}:download`);
    expect(paths.every((p) => p.startsWith('/v1/'))).toBe(true);
  });
});
