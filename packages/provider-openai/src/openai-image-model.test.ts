import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { warningText, type ImageInput, type ImageRequest } from '@gateway/core';
import { createOpenAiProvider } from './openai-provider';
import { pngHeader } from '@gateway/testkit';

/** A PNG header of the given size, plus a tag that makes each answer's bytes distinct. */
const pngHead = (w: number, h: number, tag = '') => Buffer.concat([pngHeader(w, h), Buffer.from(tag)]);

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  raw: Buffer;
}
type Reply = (seen: Seen, res: http.ServerResponse) => void;

async function server(reply: Reply) {
  const seen: Seen[] = [];
  const s = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const one = { method: req.method!, url: req.url!, headers: req.headers, raw: Buffer.concat(chunks) };
    seen.push(one);
    reply(one, res);
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return {
    origin: `http://127.0.0.1:${(s.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise<void>((r) => s.close(() => r())),
  };
}

const json = (res: http.ServerResponse, body: unknown) =>
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
const request = (over: Partial<ImageRequest> = {}): ImageRequest => ({
  model: 'gpt-image-1',
  prompt: 'a fox',
  n: 1,
  width: 1024,
  height: 1536,
  outputFormat: 'png',
  ...over,
});
const input = (tag: string): ImageInput => ({ mediaType: 'image/png', data: pngHead(64, 64, tag), width: 64, height: 64 });
const ctx = () => ({ signal: new AbortController().signal, requestId: 'r' });

describe('OpenAiImageModel', () => {
  it('generations: JSON body from the canonical request, b64 images decoded, usage mapped', async () => {
    const up = await server((_s, res) =>
      json(res, {
        created: 1,
        data: [{ b64_json: pngHead(1024, 1536, 'one').toString('base64'), revised_prompt: 'a red fox' }],
        output_format: 'png',
        background: 'transparent',
        quality: 'high',
        usage: { input_tokens: 50, output_tokens: 4000, input_tokens_details: { image_tokens: 0, text_tokens: 50 } },
      }),
    );
    const p = createOpenAiProvider({ baseUrl: `${up.origin}/v1`, apiKey: 'sk-upstream-000001' });
    try {
      const out = await p.image.generate(request({ quality: 'high', background: 'transparent', outputCompression: undefined }), ctx());
      expect(up.seen[0]!.url).toBe('/v1/images/generations');
      expect(JSON.parse(up.seen[0]!.raw.toString())).toEqual({
        model: 'gpt-image-1',
        prompt: 'a fox',
        n: 1,
        size: '1024x1536',
        quality: 'high',
        background: 'transparent',
        output_format: 'png',
      });
      expect(up.seen[0]!.headers.authorization).toBe('Bearer sk-upstream-000001');
      expect(out.images).toEqual([{ mediaType: 'image/png', data: pngHead(1024, 1536, 'one'), revisedPrompt: 'a red fox' }]);
      expect(out.usage).toEqual({ inputTextTokens: 50, inputImageTokens: 0, outputTokens: 4000 });
      // what gpt-image reports it used, for answers that must name concrete values
      expect(out.used).toEqual({ background: 'transparent', quality: 'high' });
    } finally {
      p.close();
      await up.close();
    }
  });

  it('dall-e asks for b64_json; a URL answer on another host is fetched without the key', async () => {
    const cdn = await server((_s, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(pngHead(1024, 1024, 'cdn')));
    const up = await server((_s, res) => json(res, { created: 1, data: [{ url: `${cdn.origin}/img.png` }] }));
    const p = createOpenAiProvider({ baseUrl: `${up.origin}/v1`, apiKey: 'sk-upstream-000001' });
    try {
      const out = await p.image.generate(
        request({ model: 'dall-e-3', width: 1024, height: 1024, style: 'vivid', outputFormat: 'jpeg' }),
        ctx(),
      );
      expect(JSON.parse(up.seen[0]!.raw.toString())).toMatchObject({ model: 'dall-e-3', response_format: 'b64_json', style: 'vivid' });
      expect(out.images[0]!.data).toEqual(pngHead(1024, 1024, 'cdn'));
      expect(out.warnings.map(warningText)).toEqual(['output_format: dall-e-3 returns png only']);
      expect(cdn.seen[0]!.headers.authorization).toBeUndefined();
    } finally {
      p.close();
      await Promise.all([up.close(), cdn.close()]);
    }
  });

  it('edits: multipart with repeated image[] parts and the mask; streaming yields partial images then the image', async () => {
    const up = await server((s, res) => {
      if (s.url === '/v1/images/edits' && !s.raw.toString('latin1').includes('name="stream"')) {
        return json(res, { data: [{ b64_json: pngHead(64, 64, 'edited').toString('base64') }] });
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const ev = (o: unknown) => `event: x\ndata: ${JSON.stringify(o)}\n\n`;
      res.write(ev({ type: 'image_edit.partial_image', partial_image_index: 0, b64_json: pngHead(64, 64, 'p0').toString('base64') }));
      res.end(
        ev({
          type: 'image_edit.completed',
          b64_json: pngHead(64, 64, 'final').toString('base64'),
          usage: { input_tokens: 10, output_tokens: 20 },
        }),
      );
    });
    const p = createOpenAiProvider({ baseUrl: `${up.origin}/v1`, apiKey: 'sk-upstream-000001' });
    try {
      const edit = request({ width: 64, height: 64, images: [input('a'), input('b')], mask: input('m') });
      const out = await p.image.generate(edit, ctx());
      const body = up.seen[0]!.raw.toString('latin1');
      expect(up.seen[0]!.headers['content-type']).toMatch(/^multipart\/form-data/);
      expect(body.match(/name="image\[\]"/g)).toHaveLength(2);
      expect(body).toContain('name="mask"; filename="mask.png"');
      expect(body).toContain('name="size"\r\n\r\n64x64');
      expect(out.images[0]!.data).toEqual(pngHead(64, 64, 'edited'));

      const parts = [];
      for await (const part of p.image.stream!({ ...edit, images: [input('a')], mask: undefined, partialImages: 1 }, ctx()))
        parts.push(part);
      expect(up.seen[1]!.raw.toString('latin1')).toMatch(/name="image"; filename=/);
      expect(parts.map((x) => x.type)).toEqual(['partial-image', 'image', 'finish']);
      expect(parts[2]).toEqual({ type: 'finish', warnings: [], usage: { inputTextTokens: 10, inputImageTokens: 0, outputTokens: 20 } });
    } finally {
      p.close();
      await up.close();
    }
  });

  it('an upstream refusal keeps its meaning (content_policy) and its code', async () => {
    const up = await server((_s, res) =>
      res.writeHead(400, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          error: {
            message: 'Your request was rejected by the safety system.',
            code: 'moderation_blocked',
            type: 'image_generation_user_error',
          },
        }),
      ),
    );
    const p = createOpenAiProvider({ baseUrl: `${up.origin}/v1`, apiKey: 'sk-upstream-000001' });
    try {
      await expect(p.image.generate(request(), ctx())).rejects.toMatchObject({
        reason: 'content_policy',
        upstreamCode: 'moderation_blocked',
      });
    } finally {
      p.close();
      await up.close();
    }
  });
});
