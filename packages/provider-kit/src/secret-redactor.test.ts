import { createRedactor, redactDeep, REDACTED } from './secret-redactor';

const KEY = 'sk-Proj-7f3a9c1eD4b8A2f6';
const redact = createRedactor([KEY, undefined, '']);

describe('createRedactor', () => {
  it.each([
    ['whole', `bad key ${KEY} sent`],
    ['upper-cased', `bad key ${KEY.toUpperCase()} sent`],
    ['lower-cased', `bad key ${KEY.toLowerCase()} sent`],
    ['truncated like OpenAI prints it', `bad key ${KEY.slice(0, 8)}************${KEY.slice(-4)} sent`],
    ['an inner 8-character fragment', `bad key …${KEY.slice(5, 13)}… sent`],
    ['URL-encoded', `GET /v1?key=${encodeURIComponent(KEY + '/+')} sent`],
    ['base64 alone', `auth ${Buffer.from(KEY).toString('base64')} sent`],
    ['base64 inside a Basic header', `auth Basic ${Buffer.from(`user:${KEY}`).toString('base64')} sent`],
    ['base64url at another alignment', `auth ${Buffer.from(`ab${KEY}`).toString('base64url')} sent`],
  ])('cuts the key out when %s', (_name, text) => {
    const out = redact(text);
    expect(out).toContain(REDACTED);
    expect(out.toLowerCase()).not.toContain(KEY.slice(0, 8).toLowerCase());
    expect(out.toLowerCase()).not.toContain(KEY.slice(8, 16).toLowerCase());
    expect(out.startsWith(text.slice(0, 3))).toBe(true);
  });

  it('leaves text without a fragment of 8 characters alone', () => {
    const text = `The upstream said sk-Proj (7 chars: ${KEY.slice(0, 7)}) and nothing else.`;
    expect(redact(text)).toBe(text);
  });

  it('a run of letters alone counts from 12 characters: a word shared with a key stays, a longer letter run goes', () => {
    const r = createRedactor(['fake-anthropic-key-0001', 'sk-abcdefghijklmnop-9']);
    expect(r('req_anthropic_stream_1')).toBe('req_anthropic_stream_1');
    expect(r('key fake-anthropic-key-0001!')).toBe(`key ${REDACTED}!`);
    expect(r('x abcdefghijklm y')).toBe(`x ${REDACTED} y`);
    // a key's first characters are what a truncated key shows: they count whatever they are
    expect(createRedactor(['AIzaSyVeo7Kp2Lm9Qx4RtW'])('key AIzaSyVe****4RtW')).toBe(`key ${REDACTED}****4RtW`);
  });

  it('matches short keys only whole, and no keys means no change', () => {
    expect(createRedactor(['abc123'])('x abc123 y ABC12')).toBe(`x ${REDACTED} y ABC12`);
    expect(createRedactor([])(`x ${KEY}`)).toBe(`x ${KEY}`);
  });

  it('redacts every string of a JSON value, keys included, without touching the input', () => {
    const input = { error: { message: `key ${KEY}`, [KEY]: 1, list: [KEY, 2] } };
    const out = redactDeep(input, redact);
    expect(JSON.stringify(out)).not.toContain(KEY);
    expect(input.error.message).toContain(KEY);
  });
});
