import { InMemoryContentStore } from '@gateway/testkit';
import { ContentImageStore } from './content-image-store';
import { IMAGE_URL_TTL_MS } from './expiring-image-files';

let now: number;
let content: InMemoryContentStore;
let images: ContentImageStore;
beforeEach(() => {
  now = Date.parse('2030-01-01T00:00:00Z');
  content = new InMemoryContentStore(() => now);
  images = new ContentImageStore(content, { now: () => now });
});

describe('ContentImageStore', () => {
  it('keeps the image in the content store under images/ and serves it until the TTL passes', async () => {
    const { name, expiresAt } = await images.save(Uint8Array.from([1, 2, 3]), 'image/jpeg');
    expect(name).toMatch(/^img[a-z0-9]{32}-[a-z0-9]+\.jpeg$/);
    expect(expiresAt).toBe(now + IMAGE_URL_TTL_MS);
    expect([...content.objects.keys()]).toEqual([`images/${name}`]);
    now += IMAGE_URL_TTL_MS - 1;
    expect(await images.open(name)).toEqual({ mediaType: 'image/jpeg', data: Buffer.from([1, 2, 3]), expiresAt });
    now += 1;
    expect(await images.open(name)).toBeNull();
    expect(content.objects.size).toBe(0);
  });

  it('a name with a later expiry written in is another key: not found', async () => {
    const { name } = await images.save(Uint8Array.from([1]), 'image/png');
    const forged = name.replace(/-[a-z0-9]+\./, `-${(now + 10 * IMAGE_URL_TTL_MS).toString(36)}.`);
    expect(await images.open(forged)).toBeNull();
  });

  it('refuses malformed names without asking the store', async () => {
    const ask = jest.spyOn(content, 'stat');
    for (const name of ['../x.png', `img${'a'.repeat(32)}.png`, `img${'a'.repeat(32)}-zz.gif`, `IMG${'a'.repeat(32)}-zz.png`]) {
      expect(await images.open(name)).toBeNull();
    }
    expect(ask).not.toHaveBeenCalled();
  });
});
