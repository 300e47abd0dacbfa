import type { ModelSpec } from './catalogue';
import { missingPrice, videoCost } from './billing';

const video = (pricing?: ModelSpec['pricing']): ModelSpec => ({
  id: 'v',
  kind: 'video',
  family: '2.0',
  tier: 'fast',
  deployments: [],
  pricing,
});

describe('pricing fails closed', () => {
  it('names what a partial table leaves unpriced, per kind; a free model or a full table passes', () => {
    expect(missingPrice(video({ perVideoSecond: { '720p': 1 } }))).toBe('video model v offers 480p but perVideoSecond does not price it');
    expect(missingPrice(video({ perVideoSecond: { '480p': 1, '720p': 2 } }))).toBeNull();
    expect(missingPrice(video())).toBeNull();
    expect(missingPrice({ id: 'i', kind: 'image', deployments: [], pricing: {} })).toBe('image model i has a price table without perImage');
    expect(missingPrice({ id: 't', kind: 'text', deployments: [], pricing: { inputPerMillionTokens: 1 } })).toBe(
      'text model t has a price table without outputPerMillionTokens',
    );
  });

  it('an unpriced resolution of a priced model is an error at run time, never free', () => {
    expect(() => videoCost(video({ perVideoSecond: { '720p': 1 } }), '480p', 5)).toThrow(/no price for 480p/);
    expect(videoCost(video({ perVideoSecond: { '720p': 1.5 } }), '720p', 4)).toBe(6);
    expect(videoCost(video(), '480p', 5)).toBe(0);
  });
});
