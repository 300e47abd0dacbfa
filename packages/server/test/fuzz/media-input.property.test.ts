import fc from 'fast-check';
import request from 'supertest';
import { errorShapeProblem, type ErrorShape } from './endpoints';
import { fuzzRuns, UNCAPPED, hostileString, leakProblem, recordCase, rowCounts, writeReport } from './fuzz-kit';
import { pngImage } from '../support/video-fixtures';
import { BETA_KEY, startTestGateway, testConfigFile, type TestGateway } from '../support/test-gateway';

/**
 * Uploads and inline images: truncated and malformed multipart, files that are not images (whatever their name
 * and declared type), bad base64 and non-image bytes in every format that takes an image. The answer is a 4xx in
 * the format's shape whenever the input cannot be an image, never a 5xx, and a refused creation writes no task.
 */
const RUNS = fuzzRuns(60);
jest.setTimeout(300_000);

let gw: TestGateway;
const FRAME = pngImage(1280, 720);
const EDIT_IMAGE = pngImage(256, 256);
beforeAll(async () => {
  gw = await startTestGateway({ config: testConfigFile({ limits: UNCAPPED }) });
});
afterAll(async () => {
  writeReport('media-input');
  await gw.stop();
});

interface Part {
  name: string;
  filename?: string;
  type?: string;
  data: Buffer | string;
}

function multipart(boundary: string, parts: Part[]): Buffer {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const file = p.filename !== undefined ? `; filename="${p.filename}"` : '';
    const type = p.type ? `\r\nContent-Type: ${p.type}` : '';
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"${file}${type}\r\n\r\n`),
      Buffer.from(p.data),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

const UPLOADS = [
  {
    name: 'videos',
    path: '/v1/videos',
    fileField: 'input_reference',
    fields: { model: 'sim-video-2.0', prompt: 'a cat', seconds: '4', size: '1280x720' },
    image: FRAME,
  },
  {
    name: 'images:edits',
    path: '/v1/images/edits',
    fileField: 'image',
    fields: { model: 'sim-image', prompt: 'make it blue' },
    image: EDIT_IMAGE,
  },
];

/** Bytes that are no image (of an accepted format): the checks read the bytes, so a PNG name or type must not help. */
const notAnImage = fc.oneof(
  fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a)),
  fc.constantFrom(
    Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
    Buffer.from('GIF89a\x01\x00\x01\x00'),
    Buffer.from('%PDF-1.4\n'),
    Buffer.alloc(0),
    Buffer.from('\x89PNG\r\n\x1a\n'),
    Buffer.from('\xff\xd8\xff\xe0'),
    FRAME.subarray(0, 20),
  ),
);
/**
 * An intact header (format and size) over damaged pixel data. Inputs are checked by their header, not decoded
 * (docs/reliability.md): these may be accepted and then fail upstream, but never with a 5xx.
 */
const damagedImage = fc.constantFrom(FRAME.subarray(0, 60), Buffer.concat([FRAME.subarray(0, 33), Buffer.alloc(40, 7)]));

/** fast-check prints counterexamples; a label keeps a megabyte of multipart out of the report. */
const labelled = <T extends object>(value: T, label: string): T => Object.assign(value, { [fc.toStringMethod]: () => label });
const declaredType = fc.constantFrom(
  'image/png',
  'image/jpeg',
  'image/webp',
  'text/plain',
  'application/octet-stream',
  'image/svg+xml',
  '',
);
// No quote, CR, LF or backslash: those make the filename unreadable (`filename="x\"` never ends), which, like an
// empty filename, turns the part into no file at all (see the empty-filename note below).
const filename = fc.oneof(
  fc.constantFrom('frame.png', '../../etc/passwd', 'a'.repeat(300), 'x.png\u0000.exe', '😀.jpg', ''),
  fc.string({ maxLength: 20 }).map((s) => s.replace(/["\r\n\\]/g, '')),
);

/** The filename as the multipart parser keeps it: what follows the last slash or backslash. */
const baseName = (name: string) => name.split(/[\\/]/).pop() ?? '';

type Body = { buffer: Buffer; contentType: string; mustRefuse: boolean };

const uploadCase = (u: (typeof UPLOADS)[number]) => {
  const fieldParts = Object.entries(u.fields).map(([name, data]) => ({ name, data }));
  const valid = (boundary: string, file: Part) => multipart(boundary, [...fieldParts, file]);
  const frame = { name: u.fileField, filename: 'frame.png', type: 'image/png', data: u.image };
  return fc.oneof(
    // the body cut short: the closing delimiter never comes
    fc.nat().map((n): Body => {
      const full = valid('b0undary', frame);
      const cut = n % (full.length - 12);
      return labelled(
        { buffer: full.subarray(0, cut), contentType: 'multipart/form-data; boundary=b0undary', mustRefuse: true },
        `truncated at ${cut} of ${full.length}`,
      );
    }),
    // a file that is not an image, whatever it claims
    // (A part with an empty filename is no file at all, as a browser sends an empty file input: it is ignored. The
    // parser keeps only what follows the last slash, so "dir/" is an empty filename too.)
    fc
      .tuple(
        fc.oneof(
          notAnImage.map((b) => [b, true] as const),
          damagedImage.map((b) => [b, false] as const),
        ),
        declaredType,
        filename,
      )
      .map(([[data, refuse], type, name]): Body =>
        labelled(
          {
            buffer: valid('b0undary', { name: u.fileField, filename: name, type, data }),
            contentType: 'multipart/form-data; boundary=b0undary',
            mustRefuse: refuse && baseName(name) !== '',
          },
          `file ${JSON.stringify(name)} (${type}) of ${data.length} bytes starting ${data.subarray(0, 12).toString('hex')}`,
        ),
      ),
    // bytes of a valid body overwritten, a wrong or missing boundary, broken part headers, hostile field names
    fc
      .tuple(
        fc.nat(),
        fc.uint8Array({ minLength: 1, maxLength: 40 }),
        fc.constantFrom('b0undary', 'other', '', '"b0undary"', 'b0undary; charset=x'),
        hostileString,
      )
      .map(([at, junk, declared, field]): Body => {
        const full = Buffer.from(valid('b0undary', frame));
        Buffer.from(junk).copy(full, at % full.length);
        const extra = multipart('b0undary', [{ name: field.replace(/["\r\n]/g, ''), data: field }]);
        const buffer = at % 3 === 0 ? Buffer.concat([extra.subarray(0, extra.length - 14), full]) : full;
        const contentType = `multipart/form-data${declared ? `; boundary=${declared}` : ''}`;
        return labelled(
          { buffer, contentType, mustRefuse: false },
          `${junk.length} junk bytes at ${at % full.length}, ${contentType}, extra field ${JSON.stringify(field.slice(0, 40))}`,
        );
      }),
    // many parts: repeated files, unknown file fields
    fc
      .tuple(fc.integer({ min: 2, max: 20 }), fc.constantFrom(u.fileField, `${u.fileField}[]`, 'mask', 'unknown', 'image[1]'))
      .map(([n, name]): Body =>
        labelled(
          {
            buffer: multipart('b0undary', [...fieldParts, ...Array.from({ length: n }, () => ({ ...frame, name }))]),
            contentType: 'multipart/form-data; boundary=b0undary',
            mustRefuse: false,
          },
          `${n} file parts named ${name}`,
        ),
      ),
  );
};

async function check(name: string, shape: ErrorShape, send: () => request.Test, mustRefuse: boolean) {
  const before = await rowCounts(gw.db.knex);
  const res = await send();
  recordCase(name, res.status);
  if (res.status >= 500)
    expect({ status: res.status, text: res.text }).toEqual({ status: 503, text: expect.stringContaining('model_not_in_group') });
  if (mustRefuse) expect(res.status >= 400 && res.status < 500 ? 'refused' : `${res.status}: ${res.text.slice(0, 300)}`).toBe('refused');
  expect(leakProblem(res.text ?? '')).toBeNull();
  if (res.status >= 400) {
    expect(errorShapeProblem(shape, res.body)).toBeNull();
    expect(await rowCounts(gw.db.knex)).toEqual(before);
  }
}

describe.each(UPLOADS)('multipart: $name', (u) => {
  it('truncated, malformed and non-image uploads: 4xx in the format, no task, nothing leaks', async () => {
    await fc.assert(
      fc.asyncProperty(uploadCase(u), async (b) => {
        await check(
          `multipart ${u.name}`,
          'openai',
          () => request(gw.url).post(u.path).set('Authorization', `Bearer ${BETA_KEY}`).set('content-type', b.contentType).send(b.buffer),
          b.mustRefuse,
        );
      }),
      { numRuns: RUNS, timeout: 8000, endOnFailure: true },
    );
  });
});

/** Where each format takes inline image bytes (base64), with the error shape it answers in. */
const INLINE: Array<{
  name: string;
  shape: ErrorShape;
  path: string;
  headers?: Record<string, string>;
  creates: boolean;
  body: (b64: string, type: string) => unknown;
}> = [
  {
    name: 'predictLongRunning',
    shape: 'code-message',
    path: '/v1beta/models/sim-video-2.0:predictLongRunning',
    creates: true,
    body: (b, t) => ({ instances: [{ prompt: 'x', image: { bytesBase64Encoded: b, mimeType: t } }] }),
  },
  {
    name: 'videos',
    shape: 'openai',
    path: '/v1/videos',
    creates: true,
    body: (b, t) => ({ model: 'sim-video-2.0', prompt: 'x', size: '1280x720', input_reference: `data:${t};base64,${b}` }),
  },
  {
    name: 'tasks',
    shape: 'code-message',
    path: '/v1/contents/generations/tasks',
    creates: true,
    body: (b, t) => ({
      model: 'sim-video-2.0',
      content: [
        { type: 'text', text: 'x' },
        { type: 'image_url', role: 'first_frame', image_url: { url: `data:${t};base64,${b}` } },
      ],
    }),
  },
  {
    name: 'images:edits',
    shape: 'openai',
    path: '/v1/images/edits',
    creates: true,
    body: (b, t) => ({ model: 'sim-image', prompt: 'x', image: `data:${t};base64,${b}` }),
  },
  {
    name: 'chat',
    shape: 'openai',
    path: '/v1/chat/completions',
    creates: false,
    body: (b, t) => ({
      model: 'sim-chat',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'x' },
            { type: 'image_url', image_url: { url: `data:${t};base64,${b}` } },
          ],
        },
      ],
    }),
  },
  {
    name: 'messages',
    shape: 'anthropic',
    path: '/v1/messages',
    headers: { 'anthropic-version': '2023-06-01' },
    creates: false,
    body: (b, t) => ({
      model: 'sim-chat',
      max_tokens: 16,
      messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: t, data: b } }] }],
    }),
  },
  {
    name: 'responses',
    shape: 'openai',
    path: '/v1/responses',
    creates: false,
    body: (b, t) => ({
      model: 'sim-chat',
      input: [{ role: 'user', content: [{ type: 'input_image', image_url: `data:${t};base64,${b}` }] }],
    }),
  },
  {
    name: 'generateContent',
    shape: 'google',
    path: '/v1beta/models/sim-chat:generateContent',
    creates: false,
    body: (b, t) => ({ contents: [{ role: 'user', parts: [{ inlineData: { mimeType: t, data: b } }] }] }),
  },
];

/** Base64 that does not decode, or decodes to something that is not an image; `refuse` unless only the pixels are damaged. */
const badBase64 = fc.oneof(
  notAnImage.map((b) => ({ b64: b.toString('base64'), refuse: true })),
  damagedImage.map((b) => ({ b64: b.toString('base64'), refuse: false })),
  fc
    .constantFrom(
      'not base64!',
      '====',
      'iVBORw0KGgo',
      'A',
      '%%%',
      'data:image/png;base64,AAAA',
      ' '.repeat(10),
      'QUJD\u0000',
      'iVBORw0KGgo'.repeat(1000),
    )
    .map((b64) => ({ b64, refuse: true })),
  fc.string({ maxLength: 60 }).map((b64) => ({ b64, refuse: true })),
);

describe.each(INLINE)('inline image: $name', (f) => {
  it('bad base64 and bytes that are not an image are refused where they would be used; never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(badBase64, declaredType, async ({ b64, refuse }, type) => {
        let req = request(gw.url).post(f.path).set('Authorization', `Bearer ${BETA_KEY}`);
        for (const [k, v] of Object.entries(f.headers ?? {})) req = req.set(k, v);
        // Video tasks and edits use the bytes themselves: they must refuse. Text models may pass them on.
        await check(`inline ${f.name}`, f.shape, () => req.send(f.body(b64, type || 'image/png') as object), f.creates && refuse);
      }),
      { numRuns: RUNS, timeout: 8000, endOnFailure: true },
    );
  });
});
