/**
 * Text a client sends is checked once decoded, whatever its charset, before any use case runs: NUL,
 * malformed byte sequences, lone surrogates and JSON nested deeper than 64 are a 400 in the caller's
 * format (never a 500), in JSON bodies and multipart fields alike; a multipart request is bounded as a whole.
 */
import http from 'node:http';
import { LIMITS } from '@gateway/http-kit';
import { ALPHA_KEY, startTestGateway, type TestGateway } from './support/test-gateway';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(async () => {
  await gw.stop();
});

const auth = { Authorization: `Bearer ${ALPHA_KEY}` };
const chatJson = (content: string) => JSON.stringify({ model: 'sim-chat', messages: [{ role: 'user', content }] });
const utf32le = (s: string) => Buffer.concat([...s].map((c) => Buffer.from(Uint32Array.of(c.codePointAt(0)!).buffer)));
/** a chat body whose JSON holds `depth` objects and arrays inside one another (the root object is the first) */
const nested = (depth: number) =>
  `{"model":"sim-chat","messages":[{"role":"user","content":"hi"}],"metadata":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;

async function post(body: Buffer | string, contentType: string) {
  const res = await fetch(`${gw.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { ...auth, 'Content-Type': contentType },
    body: Buffer.isBuffer(body) ? body : Buffer.from(body),
  });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) as { error?: { code?: string; message: string } } };
}

describe('JSON bodies, after charset decoding', () => {
  it.each([
    ['utf-8, an escaped NUL', Buffer.from(chatJson('a\u0000b')), 'application/json', 'nul_character'],
    ['utf-16le, an escaped NUL', Buffer.from(chatJson('a\u0000b'), 'utf16le'), 'application/json; charset=utf-16le', 'nul_character'],
    ['utf-32le, an escaped NUL', utf32le(chatJson('a\u0000b')), 'application/json; charset=utf-32le', 'nul_character'],
    [
      'utf-8 with an invalid byte',
      Buffer.concat([Buffer.from(chatJson('ab')).subarray(0, 60), Buffer.from([0xff, 0xfe]), Buffer.from(chatJson('ab')).subarray(60)]),
      'application/json',
      'invalid_text',
    ],
    [
      'utf-16le with a lone surrogate',
      Buffer.concat([
        Buffer.from(chatJson('x'), 'utf16le').subarray(0, 120),
        Buffer.from([0x00, 0xd8]),
        Buffer.from(chatJson('x'), 'utf16le').subarray(120),
      ]),
      'application/json; charset=utf-16le',
      'invalid_text',
    ],
    ['an escaped lone surrogate', Buffer.from(chatJson('x').replace('"x"', '"\\ud800x"')), 'application/json', 'invalid_text'],
  ])('%s is a 400', async (_name, body, type, code) => {
    const res = await post(body, type);
    expect({ status: res.status, code: res.body.error?.code }).toEqual({ status: 400, code });
  });

  it('well-formed utf-16 and utf-32 bodies are still served', async () => {
    expect((await post(Buffer.from(chatJson('héllo ☃ 😀'), 'utf16le'), 'application/json; charset=utf-16le')).status).toBe(200);
    expect((await post(utf32le(chatJson('héllo ☃ 😀')), 'application/json; charset=utf-32le')).status).toBe(200);
  });

  it('nesting: 64 levels pass the door, 65 and 100,000 are a 400 naming the limit (never a 500)', async () => {
    expect((await post(nested(64), 'application/json')).body.error?.code).not.toBe('json_too_deep');
    for (const depth of [65, 100_000]) {
      const res = await post(nested(depth), 'application/json');
      expect({ depth, status: res.status, code: res.body.error?.code }).toEqual({ depth, status: 400, code: 'json_too_deep' });
      expect(res.body.error?.message).toContain(String(LIMITS.jsonDepth));
    }
  });
});

describe('multipart', () => {
  const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
  /** an edit request whose prompt field carries these raw bytes */
  const editWithPrompt = (prompt: Buffer) => {
    const b = 'gatewayfields';
    const field = (name: string, value: Buffer | string) =>
      Buffer.concat([
        Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n`),
        Buffer.from(value),
        Buffer.from('\r\n'),
      ]);
    const body = Buffer.concat([
      field('model', 'sim-image'),
      field('prompt', prompt),
      Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="image"; filename="in.png"\r\nContent-Type: image/png\r\n\r\n`),
      png,
      Buffer.from(`\r\n--${b}--\r\n`),
    ]);
    return fetch(`${gw.url}/v1/images/edits`, {
      method: 'POST',
      headers: { ...auth, 'content-type': `multipart/form-data; boundary=${b}` },
      body,
    });
  };

  it.each([
    ['a NUL', Buffer.from('paint\u0000it'), 'nul_character'],
    ['bytes that are not UTF-8', Buffer.from([0x70, 0x61, 0xff, 0xfe, 0x69, 0x6e, 0x74]), 'invalid_text'],
  ])('a text field with %s is a 400 naming the field', async (_name, prompt, code) => {
    const res = await editWithPrompt(prompt);
    const body = (await res.json()) as { error?: { code?: string; param?: string } };
    expect({ status: res.status, code: body.error?.code, param: body.error?.param }).toEqual({ status: 400, code, param: 'prompt' });
  });

  it(`a request over ${LIMITS.multipartBytes} bytes in total is a 413, declared or streamed, though each file is under its own limit`, async () => {
    const boundary = 'gatewaylimit';
    const part = (name: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${name}.png"\r\nContent-Type: image/png\r\n\r\n`;
    const fileBytes = LIMITS.fileBytes - 1024 * 1024;
    const files = Math.ceil(LIMITS.multipartBytes / fileBytes) + 1;
    const send = (declared: boolean) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request(`${gw.url}/v1/images/edits`, {
          method: 'POST',
          headers: {
            ...auth,
            'content-type': `multipart/form-data; boundary=${boundary}`,
            ...(declared ? { 'content-length': String(files * fileBytes + 4096) } : {}),
          },
        });
        req.on('response', (res) => {
          let body = '';
          res.on('data', (c) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode!, body }));
        });
        req.on('error', reject);
        const chunk = Buffer.alloc(1024 * 1024, 7);
        let i = 0;
        const write = () => {
          while (i < files * 24) {
            const file = Math.floor(i / 24);
            const head = i % 24 === 0 ? Buffer.from((file ? '\r\n' : '') + part(`image${file}`)) : Buffer.alloc(0);
            i++;
            if (!req.write(Buffer.concat([head, chunk]))) return void req.once('drain', write);
          }
          req.end(`\r\n--${boundary}--\r\n`);
        };
        write();
      });
    for (const declared of [true, false]) {
      const res = await send(declared);
      expect({ declared, status: res.status, code: JSON.parse(res.body).error?.code }).toEqual({
        declared,
        status: 413,
        code: 'request_too_large',
      });
    }
  });
});
