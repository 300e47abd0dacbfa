import { isForbiddenAddress, loadUrlBytes, safeFetch } from './safe-fetch';

const codeOf = async (p: Promise<unknown>) =>
  p.then(
    () => 'fetched',
    (e: { code?: string }) => e.code ?? String(e),
  );

describe('isForbiddenAddress', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    'fd00:ec2::254',
    '::ffff:127.0.0.1',
    '::ffff:a9fe:a9fe',
    '64:ff9b::7f00:1',
    'not-an-ip',
  ])('%s is refused', (a) => expect(isForbiddenAddress(a)).toBe(true));

  it.each(['8.8.8.8', '93.184.216.34', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('%s is allowed', (a) =>
    expect(isForbiddenAddress(a)).toBe(false),
  );
});

describe('safeFetch refusals (no traffic leaves the machine)', () => {
  it('refuses plain http', async () => {
    expect(await codeOf(safeFetch('http://example.com/a.png', { param: 'input_reference' }))).toBe('unsupported_url_scheme');
  });

  it('refuses other schemes and garbage', async () => {
    expect(await codeOf(safeFetch('ftp://example.com/a.png'))).toBe('unsupported_url_scheme');
    expect(await codeOf(safeFetch('not a url'))).toBe('invalid_url');
    expect(await codeOf(safeFetch('https://user:pw@example.com/a.png'))).toBe('invalid_url');
  });

  it.each(['https://127.0.0.1/a.png', 'https://[::1]/a.png', 'https://169.254.169.254/latest/meta-data', 'https://[::ffff:127.0.0.1]/x'])(
    'refuses the literal address in %s',
    async (url) => expect(await codeOf(safeFetch(url))).toBe('forbidden_url_address'),
  );

  it('refuses a hostname when any of its records is private (DNS checked before connecting)', async () => {
    const lookup = async () => [
      { address: '93.184.216.34', family: 4 as const },
      { address: '10.0.0.5', family: 4 as const },
    ];
    expect(await codeOf(safeFetch('https://images.example/a.png', { lookup }))).toBe('forbidden_url_address');
  });

  it('refuses localhost through the system resolver', async () => {
    expect(await codeOf(safeFetch('https://localhost/a.png'))).toBe('forbidden_url_address');
  });

  it('reports an unresolvable host as a fetch failure naming the field', async () => {
    const lookup = async () => {
      throw new Error('ENOTFOUND');
    };
    const e = await safeFetch('https://nowhere.example/a.png', { lookup, param: 'content[1].image_url.url' }).catch((x) => x);
    expect(e).toMatchObject({ code: 'url_fetch_failed', param: 'content[1].image_url.url', reason: 'invalid_request' });
  });
});

describe('loadUrlBytes', () => {
  it('decodes a base64 data URL with its declared type', async () => {
    const r = await loadUrlBytes(`data:image/png;base64,${Buffer.from('hello').toString('base64')}`);
    expect(Buffer.from(r.data).toString()).toBe('hello');
    expect(r.contentType).toBe('image/png');
  });

  it.each(['data:image/png;base64,@@@', 'data:image/png,rawtext', 'data:image/png;base64,'])('refuses %s', async (url) => {
    expect(await codeOf(loadUrlBytes(url))).toBe('invalid_data_url');
  });

  it('refuses a data URL over the size limit', async () => {
    expect(await codeOf(loadUrlBytes(`data:image/png;base64,${Buffer.alloc(64).toString('base64')}`, { maxBytes: 10 }))).toBe(
      'url_too_large',
    );
  });

  it('sends anything else through safeFetch', async () => {
    expect(await codeOf(loadUrlBytes('http://example.com/x.png'))).toBe('unsupported_url_scheme');
  });
});
