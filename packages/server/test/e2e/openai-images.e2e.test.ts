import OpenAI, { BadRequestError, toFile } from 'openai';
import { PNG } from 'pngjs';
import { probeImage } from '@gateway/core';
import { ALPHA_KEY, startTestGateway, type TestGateway } from '../support/test-gateway';

let gw: TestGateway;
let client: OpenAI;
beforeAll(async () => {
  gw = await startTestGateway();
  // Image URLs are built on PUBLIC_BASE_URL, read per request: point it at this server so the URL is fetchable.
  gw.env.publicBaseUrl = gw.url;
  client = new OpenAI({ apiKey: ALPHA_KEY, baseURL: `${gw.url}/v1`, maxRetries: 0 });
});
afterAll(async () => {
  await gw.stop();
});

function png(width: number, height: number, alpha: (x: number, y: number) => number = () => 255): Buffer {
  const p = new PNG({ width, height });
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) p.data.set([90, 90, 90, alpha(x, y)], (y * width + x) * 4);
  return PNG.sync.write(p);
}

describe('openai 6.x images and models against the gateway', () => {
  it('images.generate with b64_json', async () => {
    const r = await client.images.generate({
      model: 'sim-image',
      prompt: 'a lighthouse',
      size: '1024x1536',
      response_format: 'b64_json',
      quality: 'high',
    });
    expect(r.created).toEqual(expect.any(Number));
    expect(r.data).toHaveLength(1);
    expect(r.data![0]!.revised_prompt).toEqual(expect.any(String));
    expect(probeImage(Buffer.from(r.data![0]!.b64_json!, 'base64'))).toEqual({ mediaType: 'image/png', width: 1024, height: 1536 });
    expect(r.usage?.total_tokens).toBeGreaterThan(0);
  });

  it('images.generate with url, then the URL fetched without a key', async () => {
    const r = await client.images.generate({
      model: 'sim-image',
      prompt: 'a fox',
      size: '256x256',
      response_format: 'url',
      output_format: 'jpeg',
    });
    const url = r.data![0]!.url!;
    expect(url.startsWith(`${gw.url}/v1/images/files/`)).toBe(true);
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(probeImage(new Uint8Array(await res.arrayBuffer()))).toEqual({ mediaType: 'image/jpeg', width: 256, height: 256 });
  });

  it('images.generate streams partial images', async () => {
    const stream = await client.images.generate({
      model: 'sim-image',
      prompt: 'a harbor',
      size: '256x256',
      stream: true,
      partial_images: 2,
    });
    const types: string[] = [];
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'image_generation.completed') expect(event.usage.total_tokens).toBeGreaterThan(0);
    }
    expect(types).toEqual(['image_generation.partial_image', 'image_generation.partial_image', 'image_generation.completed']);
  });

  it('images.edit with a file and a mask', async () => {
    const image = await toFile(png(64, 48), 'photo.png', { type: 'image/png' });
    const mask = await toFile(
      png(64, 48, (x) => (x < 32 ? 0 : 255)),
      'mask.png',
      { type: 'image/png' },
    );
    const r = await client.images.edit({ model: 'sim-image', prompt: 'paint the left side red', image, mask, response_format: 'b64_json' });
    const out = PNG.sync.read(Buffer.from(r.data![0]!.b64_json!, 'base64'));
    expect([out.width, out.height]).toEqual([64, 48]);
    expect(Array.from(out.data.subarray(0, 3))).toEqual([220, 40, 40]);
    const right = (10 * 64 + 60) * 4;
    expect(Array.from(out.data.subarray(right, right + 3))).toEqual([90, 90, 90]);
  });

  it('images.edit with several images', async () => {
    const images = [await toFile(png(32, 32), 'a.png', { type: 'image/png' }), await toFile(png(16, 16), 'b.png', { type: 'image/png' })];
    const r = await client.images.edit({ model: 'sim-image', prompt: 'blend', image: images, response_format: 'b64_json' });
    expect(probeImage(Buffer.from(r.data![0]!.b64_json!, 'base64'))).toMatchObject({ width: 32, height: 32 });
  });

  it('a refused field surfaces as BadRequestError naming the param', async () => {
    const e = await client.images.generate({ model: 'sim-image', prompt: 'x', size: '1792x1024' }).catch((err) => err);
    expect(e).toBeInstanceOf(BadRequestError);
    expect(e.param).toBe('size');
  });

  it("models.list returns the key's group", async () => {
    const ids: string[] = [];
    for await (const m of client.models.list()) ids.push(m.id);
    expect(ids).toEqual(['sim-chat', 'sim-image', 'sim-video-2.0', 'sim-video-2.0-fast']);
    expect((await client.models.retrieve('sim-image')).object).toBe('model');
  });
});
