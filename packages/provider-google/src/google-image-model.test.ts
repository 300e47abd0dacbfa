import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { warningText, type ImageRequest } from '@gateway/core';
import { nearestImageRatio } from './convert-to-google-image';
import { createGoogleProvider } from './google-provider';
import { pngHeader } from '@gateway/testkit';

/** A PNG header of the given size, plus a tag that makes each answer's bytes distinct. */
const pngHead = (w: number, h: number, tag = '') => Buffer.concat([pngHeader(w, h), Buffer.from(tag)]);

async function fakeGemini(answer: (body: Record<string, unknown>, n: number) => unknown) {
  const bodies: Array<Record<string, unknown>> = [];
  const paths: string[] = [];
  const serve = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>;
    bodies.push(body);
    paths.push(req.url!);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer(body, bodies.length)));
  };
  // a throw in this fake is a bug: left unhandled, as before, so the test run reports it
  const s = http.createServer((req, res) => void serve(req, res));
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`,
    bodies,
    paths,
    close: () => new Promise<void>((r) => s.close(() => r())),
  };
}

const request = (over: Partial<ImageRequest> = {}): ImageRequest => ({
  model: 'gemini-2.5-flash-image',
  prompt: 'a lighthouse',
  n: 1,
  width: 1024,
  height: 1024,
  outputFormat: 'png',
  ...over,
});
const ctx = () => ({ signal: new AbortController().signal, requestId: 'r' });

describe('GoogleImageModel', () => {
  it('nearestImageRatio picks the Gemini ratio closest to the requested size', () => {
    expect(nearestImageRatio(1024, 1024)).toBe('1:1');
    expect(nearestImageRatio(1536, 1024)).toBe('3:2');
    expect(nearestImageRatio(1024, 1792)).toBe('9:16');
  });

  it('generateContent with IMAGE output: one call per image, inlineData decoded, usage summed, size drift warned', async () => {
    const up = await fakeGemini((_b, n) => ({
      candidates: [
        {
          content: {
            parts: [
              { text: `here ${n}` },
              { inlineData: { mimeType: 'image/png', data: pngHead(1248, 832, `img${n}`).toString('base64') } },
            ],
          },
          finishReason: 'STOP',
        },
      ],
      usageMetadata: { promptTokenCount: 7, candidatesTokenCount: 1290 },
    }));
    const p = createGoogleProvider({ baseUrl: up.url, apiKey: 'goog-upstream-0001' });
    try {
      const edit = { mediaType: 'image/jpeg' as const, data: Buffer.from('jpegbytes'), width: 10, height: 10 };
      const out = await p.image.generate(request({ n: 2, width: 1536, height: 1024, quality: 'high', images: [edit] }), ctx());
      expect(up.paths).toEqual([
        '/v1beta/models/gemini-2.5-flash-image:generateContent',
        '/v1beta/models/gemini-2.5-flash-image:generateContent',
      ]);
      expect(up.bodies[0]).toEqual({
        contents: [
          {
            role: 'user',
            parts: [
              { text: 'a lighthouse' },
              { inlineData: { mimeType: 'image/jpeg', data: Buffer.from('jpegbytes').toString('base64') } },
            ],
          },
        ],
        generationConfig: { responseModalities: ['TEXT', 'IMAGE'], imageConfig: { aspectRatio: '3:2' } },
      });
      expect(out.images).toHaveLength(2);
      expect(out.images[0]).toMatchObject({ mediaType: 'image/png', revisedPrompt: expect.stringMatching(/^here/) });
      expect(out.usage).toEqual({ inputTextTokens: 14, inputImageTokens: 0, outputTokens: 2580 });
      expect(out.warnings.map(warningText)).toEqual([
        'quality: not supported by the upstream (Gemini); ignored',
        'size: the upstream (Gemini) drew 1248x832 (nearest aspect ratio)',
      ]);
    } finally {
      p.close();
      await up.close();
    }
  });

  it('refuses a mask before calling, and a safety stop becomes content_policy', async () => {
    const up = await fakeGemini(() => ({ candidates: [{ content: { parts: [] }, finishReason: 'IMAGE_SAFETY' }] }));
    const p = createGoogleProvider({ baseUrl: up.url, apiKey: 'goog-upstream-0001' });
    try {
      const img = { mediaType: 'image/png' as const, data: pngHead(8, 8), width: 8, height: 8 };
      await expect(p.image.generate(request({ images: [img], mask: img }), ctx())).rejects.toMatchObject({
        code: 'mask_not_supported',
        reason: 'invalid_request',
      });
      expect(up.bodies).toHaveLength(0);
      await expect(p.image.generate(request(), ctx())).rejects.toMatchObject({ reason: 'content_policy', upstreamCode: 'IMAGE_SAFETY' });
    } finally {
      p.close();
      await up.close();
    }
  });
});
