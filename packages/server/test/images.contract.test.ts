import { readdirSync, utimesSync } from 'node:fs';
import path from 'node:path';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import request from 'supertest';
import { probeImage } from '@gateway/core';
import { LIMITS } from '@gateway/http-kit';
import { DEFAULT_CONFIG } from '../src/default-config';
import { binaryBody } from './support/binary-body';
import { ALPHA_KEY, BETA_KEY, startTestGateway, testConfigFile, type TestGateway } from './support/test-gateway';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway({
    listen: false,
    // a vip-only image model with no `image` block: it gets the default capabilities table
    config: testConfigFile({ models: [...DEFAULT_CONFIG.models, { id: 'sim-image-plain', kind: 'image', provider: 'sim' }] }),
  });
});
afterAll(async () => {
  await gw.stop();
});

const auth = { Authorization: `Bearer ${ALPHA_KEY}` };
const generate = (body: Record<string, unknown>) =>
  request(gw.app)
    .post('/v1/images/generations')
    .set(auth)
    .send({ model: 'sim-image', prompt: 'a red fox', size: '256x256', ...body });

function png(width: number, height: number, rgba = [90, 90, 90, 255], alpha?: (x: number, y: number) => number): Buffer {
  const p = new PNG({ width, height });
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) p.data.set([rgba[0]!, rgba[1]!, rgba[2]!, alpha ? alpha(x, y) : rgba[3]!], (y * width + x) * 4);
  return PNG.sync.write(p);
}
const jpg = (width: number, height: number) => jpeg.encode({ data: Buffer.alloc(width * height * 4, 128), width, height }, 80).data;

function expectOpenAiError(res: request.Response, status: number, param?: string) {
  expect(res.status).toBe(status);
  expect(Object.keys(res.body.error).sort()).toEqual(['code', 'message', 'param', 'type']);
  for (const v of Object.values(res.body.error)) expect(typeof v).toBe('string');
  if (param !== undefined) expect(res.body.error.param).toBe(param);
}

/** SSE text → [{event, data}] */
function events(text: string): Array<{ event?: string; data: any }> {
  return text
    .split('\n\n')
    .filter((b) => b.trim())
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)![1];
      return { event, data: JSON.parse(data!) };
    });
}

describe('POST /v1/images/generations', () => {
  it('b64_json decodes to a PNG of the requested size; the result has the documented fields', async () => {
    const res = await generate({ response_format: 'b64_json' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      created: expect.any(Number),
      output_format: 'png',
      // as used (the simulator reports an opaque background); "auto" quality is not a value OpenAI's schema lists here
      background: 'opaque',
    });
    // neither is 256x256: the schema's sizes are 1024x1024, 1024x1536 and 1536x1024 (the PNG itself is 256x256)
    expect(res.body).not.toHaveProperty('quality');
    expect(res.body).not.toHaveProperty('size');
    expect(res.body.data).toHaveLength(1);
    expect(typeof res.body.data[0].revised_prompt).toBe('string');
    expect(res.body.data[0].url).toBeUndefined();
    expect(probeImage(Buffer.from(res.body.data[0].b64_json, 'base64'))).toEqual({ mediaType: 'image/png', width: 256, height: 256 });
    expect(res.body.usage).toMatchObject({ input_tokens: 3, output_tokens: expect.any(Number), total_tokens: expect.any(Number) });
  });

  it('jpeg output is a JPEG of the requested size', async () => {
    const res = await generate({ response_format: 'b64_json', output_format: 'jpeg', size: '512x512', output_compression: 70 });
    expect(res.status).toBe(200);
    expect(probeImage(Buffer.from(res.body.data[0].b64_json, 'base64'))).toEqual({ mediaType: 'image/jpeg', width: 512, height: 512 });
  });

  it('n images, and different prompts give different pictures', async () => {
    const a = await generate({ response_format: 'b64_json', n: 3 });
    const b = await generate({ response_format: 'b64_json', prompt: 'a quiet harbor' });
    expect(a.body.data).toHaveLength(3);
    expect(a.body.data[0].b64_json).not.toEqual(b.body.data[0].b64_json);
  });

  it("the default size is the model's first concrete size", async () => {
    const res = await request(gw.app)
      .post('/v1/images/generations')
      .set(auth)
      .send({ model: 'sim-image', prompt: 'x', response_format: 'b64_json' });
    expect(res.body.size).toBe('1024x1024');
  });

  it.each<[string, Record<string, unknown>]>([
    ...['auto', '256x256', '512x512', '1024x1024', '1536x1024', '1024x1536'].map(
      (size) => [`size ${size}`, { size }] as [string, Record<string, unknown>],
    ),
    ...['auto', 'low', 'medium', 'high', 'standard', 'hd'].map(
      (quality) => [`quality ${quality}`, { quality }] as [string, Record<string, unknown>],
    ),
    ['style vivid', { style: 'vivid' }],
    ['style natural', { style: 'natural' }],
    ['background auto', { background: 'auto' }],
    ['background opaque', { background: 'opaque' }],
    ['background transparent', { background: 'transparent' }],
    ['output_format png', { output_format: 'png' }],
    ['output_format jpeg', { output_format: 'jpeg' }],
    ['response_format b64_json', { response_format: 'b64_json' }],
    ['response_format url', { response_format: 'url' }],
    ['n 10', { n: 10, size: '256x256' }],
    ['moderation low', { moderation: 'low' }],
    ['user', { user: 'u-1' }],
    ['nulls as absent', { quality: null, style: null, n: null }],
  ])('accepts %s', async (_name, body) => {
    const res = await generate(body);
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBe(typeof body.n === 'number' ? body.n : 1);
  });

  it.each<[string, Record<string, unknown>, string, string | undefined]>([
    // 4 columns always: jest reads a missing one as `done`
    ['an unsupported size', { size: '300x300' }, 'size', '256x256, 512x512'],
    ['a malformed size', { size: 'large' }, 'size', 'allowed values'],
    ['an unsupported quality', { quality: 'ultra' }, 'quality', 'auto, low, medium, high, standard, hd'],
    ['an unknown style', { style: 'oil' }, 'style', 'vivid, natural'],
    ['an unknown background', { background: 'checkered' }, 'background', 'auto, opaque, transparent'],
    ['webp output (the simulator cannot encode it)', { output_format: 'webp' }, 'output_format', 'png, jpeg'],
    ['an unknown output format', { output_format: 'gif' }, 'output_format', 'png, jpeg'],
    ['n 0', { n: 0 }, 'n', '1 to 10'],
    ['n 11', { n: 11 }, 'n', '1 to 10'],
    ['n as a string', { n: '2' }, 'n', undefined],
    ['an unknown response_format', { response_format: 'xml' }, 'response_format', '"url", "b64_json"'],
    ['stream not a boolean', { stream: 'yes' }, 'stream', undefined],
    ['partial_images above the model limit', { stream: true, partial_images: 4 }, 'partial_images', '0 to 3'],
    ['partial_images without stream', { partial_images: 1 }, 'partial_images', 'stream'],
    ['stream with n > 1', { stream: true, n: 2 }, 'n', undefined],
    ['transparent background as jpeg', { background: 'transparent', output_format: 'jpeg' }, 'background', 'png or webp'],
    ['output_compression for png', { output_compression: 50 }, 'output_compression', 'jpeg and webp'],
    ['output_compression above 100', { output_format: 'jpeg', output_compression: 101 }, 'output_compression', '0 to 100'],
    ['an unknown moderation', { moderation: 'strict' }, 'moderation', '"auto", "low"'],
    ['an empty prompt', { prompt: '' }, 'prompt', 'required'],
    ['an unknown field', { sharpness: 3 }, 'sharpness', 'Unknown field'],
  ])('refuses %s with a 400 naming the field', async (_name, body, param, allowed) => {
    const res = await generate(body);
    expectOpenAiError(res, 400, param);
    if (allowed) expect(res.body.error.message).toContain(allowed);
  });

  it('a missing prompt or model is a 400', async () => {
    expectOpenAiError(await request(gw.app).post('/v1/images/generations').set(auth).send({ model: 'sim-image' }), 400, 'prompt');
    expectOpenAiError(await request(gw.app).post('/v1/images/generations').set(auth).send({ prompt: 'x' }), 400, 'model');
  });

  it('a text model is a 400; a model outside the group a 503; no key a 401', async () => {
    expectOpenAiError(await generate({ model: 'sim-chat' }), 400, 'model');
    const outside = await generate({ model: 'sim-image-plain' });
    expectOpenAiError(outside, 503, 'model');
    expect(outside.body.error.code).toBe('model_not_in_group');
    expectOpenAiError(await request(gw.app).post('/v1/images/generations').send({ model: 'sim-image', prompt: 'x' }), 401);
  });

  it('a model without an image block gets the defaults table (no 256x256, no stream)', async () => {
    const plain = (body: Record<string, unknown>) =>
      request(gw.app)
        .post('/v1/images/generations')
        .set({ Authorization: `Bearer ${BETA_KEY}` })
        .send({ model: 'sim-image-plain', prompt: 'x', ...body });
    expectOpenAiError(await plain({ size: '256x256' }), 400, 'size');
    expectOpenAiError(await plain({ stream: true }), 400, 'stream');
    expect((await plain({ response_format: 'b64_json' })).status).toBe(200);
  });

  it('logs one usage row per request, with the simulated token counts', async () => {
    const res = await generate({ response_format: 'b64_json', n: 2 });
    await gw.usage.flush();
    const row = await gw.db.knex('usage_log').where({ request_id: res.headers['x-request-id'] }).first();
    expect(row).toMatchObject({
      model: 'sim-image',
      format: 'openai-images',
      status: 'ok',
      http_status: 200,
      input_tokens: 3,
      output_tokens: res.body.usage.output_tokens,
    });
  });

  it('an upstream failure is a 502 in the OpenAI shape', async () => {
    const res = await generate({ prompt: 'please [sim:fail]' });
    expectOpenAiError(res, 502);
    expect(res.body.error.code).toBe('simulated_failure');
  });

  it('a non-JSON body is a 400', async () => {
    expectOpenAiError(await request(gw.app).post('/v1/images/generations').set(auth).type('text/plain').send('model=sim-image'), 400);
  });
});

describe('image URLs', () => {
  it('url points at the gateway, works without a key, and serves the image', async () => {
    const res = await generate({ response_format: 'url', output_format: 'jpeg' });
    expect(res.status).toBe(200);
    const url: string = res.body.data[0].url;
    expect(url).toMatch(/^https:\/\/gateway\.test\/v1\/images\/files\/img[a-z0-9]{32}\.jpeg$/);
    expect(res.body.data[0].b64_json).toBeUndefined();
    const file = await request(gw.app).get(new URL(url).pathname).buffer(true);
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe('image/jpeg');
    expect(file.headers['cache-control']).toMatch(/^private, max-age=(35\d\d|3600)$/);
    expect(probeImage(file.body)).toEqual({ mediaType: 'image/jpeg', width: 256, height: 256 });
  });

  it('expires after an hour: then 404, and the file is gone', async () => {
    const res = await generate({ response_format: 'url' });
    const pathname = new URL(res.body.data[0].url).pathname;
    const name = pathname.split('/').pop()!;
    const file = path.join(gw.dataDir, 'images', name);
    const almost = (Date.now() - 59 * 60 * 1000) / 1000;
    utimesSync(file, almost, almost);
    expect((await request(gw.app).get(pathname)).status).toBe(200);
    const expired = (Date.now() - 61 * 60 * 1000) / 1000;
    utimesSync(file, expired, expired);
    const gone = await request(gw.app).get(pathname);
    expectOpenAiError(gone, 404);
    expect(gone.body.error.code).toBe('image_not_found');
    expect(readdirSync(path.join(gw.dataDir, 'images'))).not.toContain(name);
  });

  it.each(['imgaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.png', '..%2F..%2Fetc%2Fpasswd', 'img.png'])(
    'an unknown or malformed name (%s) is a 404',
    async (name) => {
      expectOpenAiError(await request(gw.app).get(`/v1/images/files/${name}`), 404);
    },
  );
});

describe('streaming', () => {
  it('a failure before the first image is a plain HTTP error, not a stream', async () => {
    const res = await generate({ stream: true, prompt: 'x [sim:fail]' });
    expectOpenAiError(res, 502);
  });

  it('partial images, then image_generation.completed with usage', async () => {
    const res = await binaryBody(generate({ stream: true, partial_images: 2 }));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    const evs = events(String(res.body));
    expect(evs.map((e) => e.data.type)).toEqual([
      'image_generation.partial_image',
      'image_generation.partial_image',
      'image_generation.completed',
    ]);
    expect(evs.map((e) => e.event)).toEqual(evs.map((e) => e.data.type));
    expect(evs.slice(0, 2).map((e) => e.data.partial_image_index)).toEqual([0, 1]);
    for (const e of evs) {
      expect(e.data).toMatchObject({
        background: 'auto',
        output_format: 'png',
        quality: 'auto',
        size: 'auto', // 256x256 is not among the event schema's sizes
        created_at: expect.any(Number),
      });
      expect(probeImage(Buffer.from(e.data.b64_json, 'base64'))).toEqual({ mediaType: 'image/png', width: 256, height: 256 });
    }
    expect(evs[2]!.data.usage).toMatchObject({ input_tokens: 3, output_tokens: expect.any(Number), total_tokens: expect.any(Number) });
    expect(evs[0]!.data.b64_json).not.toEqual(evs[2]!.data.b64_json);
  });
});

describe('POST /v1/images/edits', () => {
  const edit = () =>
    request(gw.app)
      .post('/v1/images/edits')
      .set(auth)
      .field('model', 'sim-image')
      .field('prompt', 'paint it red')
      .field('response_format', 'b64_json');
  const decoded = (res: request.Response, i = 0) => PNG.sync.read(Buffer.from(res.body.data[i].b64_json, 'base64'));

  it('multipart image + mask: the prompt color goes into the transparent part of the mask', async () => {
    const res = await edit()
      .attach('image', png(40, 30), { filename: 'in.png', contentType: 'image/png' })
      .attach(
        'mask',
        png(40, 30, [0, 0, 0, 255], (x) => (x < 20 ? 0 : 255)),
        { filename: 'mask.png', contentType: 'image/png' },
      );
    expect(res.status).toBe(200);
    const out = decoded(res);
    expect([out.width, out.height]).toEqual([40, 30]);
    expect(Array.from(out.data.subarray(0, 3))).toEqual([220, 40, 40]);
    const right = (15 * 40 + 35) * 4;
    expect(Array.from(out.data.subarray(right, right + 3))).toEqual([90, 90, 90]);
  });

  it('a PNG named .jpg is accepted as a PNG; a JPEG is accepted too', async () => {
    const renamed = await edit().attach('image', png(32, 32), { filename: 'photo.jpg', contentType: 'image/jpeg' });
    expect(renamed.status).toBe(200);
    const fromJpeg = await edit().attach('image', jpg(24, 16), { filename: 'x.jpeg', contentType: 'image/jpeg' });
    expect(fromJpeg.status).toBe(200);
    expect([decoded(fromJpeg).width, decoded(fromJpeg).height]).toEqual([24, 16]);
  });

  it('a text file named .png is refused, from its bytes', async () => {
    const res = await edit().attach('image', Buffer.from('just some text, not pixels'), { filename: 'fake.png', contentType: 'image/png' });
    expectOpenAiError(res, 400, 'image');
    expect(res.body.error.code).toBe('invalid_image_file');
  });

  it('repeated image[] parts, n and size as text fields', async () => {
    const res = await edit()
      .field('n', '2')
      .field('size', '256x256')
      .attach('image[]', png(32, 32), 'a.png')
      .attach('image[]', png(16, 16), 'b.png');
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(2);
    expect([decoded(res, 1).width, decoded(res, 1).height]).toEqual([256, 256]);
  });

  it('a bad second image is named by its index', async () => {
    const res = await edit().attach('image[]', png(8, 8), 'a.png').attach('image[]', Buffer.from('nope'), 'b.png');
    expectOpenAiError(res, 400, 'image[1]');
  });

  it('a mask of another size is refused', async () => {
    const res = await edit().attach('image', png(40, 30), 'in.png').attach('mask', png(30, 40), 'mask.png');
    expectOpenAiError(res, 400, 'mask');
    expect(res.body.error.code).toBe('mask_size_mismatch');
  });

  it('a JPEG mask is refused: the mask needs transparency', async () => {
    const res = await edit().attach('image', jpg(16, 16), 'in.jpg').attach('mask', jpg(16, 16), 'mask.jpg');
    expectOpenAiError(res, 400, 'mask');
    expect(res.body.error.code).toBe('invalid_mask');
  });

  it(`a file over ${LIMITS.fileBytes} bytes is a 413`, async () => {
    const big = Buffer.concat([png(8, 8), Buffer.alloc(LIMITS.fileBytes + 1 - png(8, 8).length + 10)]);
    const res = await edit().attach('image', big, 'big.png');
    expectOpenAiError(res, 413);
  });

  it.each<[string, (r: request.Test) => request.Test, string, string | undefined]>([
    ['no image', (r) => r, 'image', 'missing_image'],
    ['style (generations only)', (r) => r.field('style', 'vivid').attach('image', png(8, 8), 'a.png'), 'style', 'unknown_field'],
    ['n not a number', (r) => r.field('n', 'many').attach('image', png(8, 8), 'a.png'), 'n', undefined],
    ['an unknown file field', (r) => r.attach('picture', png(8, 8), 'a.png'), 'picture', 'unknown_field'],
    [
      'two masks',
      (r) => r.attach('image', png(8, 8), 'a.png').attach('mask', png(8, 8), 'm.png').attach('mask', png(8, 8), 'm2.png'),
      'mask',
      'too_many_masks',
    ],
    ['an unsupported size', (r) => r.field('size', '100x100').attach('image', png(8, 8), 'a.png'), 'size', 'invalid_size'],
  ])('multipart with %s is a 400', async (_name, build, param, code) => {
    const res = await build(edit());
    expectOpenAiError(res, 400, param);
    if (code) expect(res.body.error.code).toBe(code);
  });

  describe('JSON', () => {
    const jsonEdit = (body: Record<string, unknown>) =>
      request(gw.app)
        .post('/v1/images/edits')
        .set(auth)
        .send({ model: 'sim-image', prompt: 'green', response_format: 'b64_json', ...body });

    it('accepts a data URL, bare base64, an array and {image_url} objects', async () => {
      const b64 = png(20, 10).toString('base64');
      for (const body of [
        { image: `data:image/png;base64,${b64}` },
        { image: b64, mask: `data:image/png;base64,${png(20, 10, [0, 0, 0, 0]).toString('base64')}` },
        { image: [b64, jpg(8, 8).toString('base64')] },
        { images: [{ image_url: `data:image/png;base64,${b64}` }], mask: { image_url: `data:image/png;base64,${b64}` } },
      ]) {
        const res = await jsonEdit(body);
        expect(res.status).toBe(200);
        expect(probeImage(Buffer.from(res.body.data[0].b64_json, 'base64'))).toMatchObject({ width: 20, height: 10 });
      }
    });

    it.each<[string, Record<string, unknown>, string, string]>([
      ['invalid base64', { image: 'not*base64!' }, 'image', 'invalid_image_data'],
      ['a data URL without base64', { image: 'data:image/png,abc' }, 'image', 'invalid_image_data'],
      ['an http URL', { image: 'http://example.test/a.png' }, 'image', 'invalid_image_url'],
      ['an https URL to a private address', { image: 'https://127.0.0.1/a.png' }, 'image', 'forbidden_url_address'],
      ['a file_id', { image: { file_id: 'file-1' } }, 'image.file_id', 'file_id_unsupported'],
      ['base64 of text', { image: Buffer.from('hello world!').toString('base64') }, 'image', 'invalid_image_file'],
      [
        'a mask of another size',
        { image: png(20, 10).toString('base64'), mask: png(10, 10).toString('base64') },
        'mask',
        'mask_size_mismatch',
      ],
    ])('refuses %s', async (_name, body, param, code) => {
      const res = await jsonEdit(body);
      expectOpenAiError(res, 400, param);
      expect(res.body.error.code).toBe(code);
    });

    it('a JSON body over the JSON limit is a 413', async () => {
      const res = await jsonEdit({ image: 'A'.repeat(LIMITS.jsonBytes + 16) });
      expectOpenAiError(res, 413);
    });

    it('streams image_edit events', async () => {
      const res = await binaryBody(jsonEdit({ image: png(16, 16).toString('base64'), stream: true, partial_images: 1 }));
      expect(events(String(res.body)).map((e) => e.data.type)).toEqual(['image_edit.partial_image', 'image_edit.completed']);
    });
  });
});
