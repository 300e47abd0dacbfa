import type { ModelSpec } from './catalogue';
import { missingPrice, settleDeliveredVideo, textCost, videoCost } from './pricing';

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

describe('billing on what was delivered (settleDeliveredVideo)', () => {
  const prices = { '480p': 1, '720p': 2 };
  const m = video({ perVideoSecond: prices });
  const asked = { resolution: '720p', durationSeconds: 10 };
  const reserved = 20; // 10 s × 2

  it('a shorter video: the seconds not delivered go back', () => {
    expect(settleDeliveredVideo(m, asked, { resolution: '720p', durationSeconds: 6 }, reserved)).toEqual({
      reserved: 20,
      charge: 12,
      refund: 8,
    });
  });

  it('delivered as asked: no refund', () => {
    expect(settleDeliveredVideo(m, asked, asked, reserved)).toEqual({ reserved: 20, charge: 20, refund: 0 });
  });

  it("a lower resolution: charged at that resolution's price", () => {
    expect(settleDeliveredVideo(m, asked, { resolution: '480p', durationSeconds: 10 }, reserved)).toEqual({
      reserved: 20,
      charge: 10,
      refund: 10,
    });
    expect(settleDeliveredVideo(m, asked, { resolution: '480p', durationSeconds: 5 }, reserved)).toMatchObject({ charge: 5, refund: 15 });
  });

  it('never more than reserved: longer or higher resolution is capped at the reservation', () => {
    expect(settleDeliveredVideo(m, asked, { resolution: '720p', durationSeconds: 12 }, reserved)).toMatchObject({ charge: 20, refund: 0 });
    const hi = video({ perVideoSecond: { ...prices, '720p': 2 } });
    expect(
      settleDeliveredVideo(hi, { resolution: '480p', durationSeconds: 10 }, { resolution: '720p', durationSeconds: 10 }, 10),
    ).toMatchObject({
      charge: 10,
      refund: 0,
    });
  });

  it('the prices of admission hold: a price change since then is no refund by itself', () => {
    const cheaper = video({ perVideoSecond: { '480p': 0.5, '720p': 1 } });
    expect(settleDeliveredVideo(cheaper, asked, asked, reserved)).toMatchObject({ charge: 20, refund: 0 });
    expect(settleDeliveredVideo(cheaper, asked, { resolution: '720p', durationSeconds: 5 }, reserved)).toMatchObject({
      charge: 10,
      refund: 10,
    });
  });

  it('an unpriced delivered resolution counts as the requested one; a free or vanished model keeps the reservation', () => {
    expect(settleDeliveredVideo(m, asked, { resolution: '4k', durationSeconds: 5 }, reserved)).toMatchObject({ charge: 10, refund: 10 });
    expect(settleDeliveredVideo(undefined, asked, { resolution: '720p', durationSeconds: 1 }, reserved)).toMatchObject({
      charge: 20,
      refund: 0,
    });
    expect(settleDeliveredVideo(video(), asked, { resolution: '720p', durationSeconds: 1 }, 0)).toEqual({
      reserved: 0,
      charge: 0,
      refund: 0,
    });
  });
});

describe('provider prompt caching in text prices (textCost)', () => {
  const text = (pricing: ModelSpec['pricing']): ModelSpec => ({ id: 't', kind: 'text', deployments: [], pricing });
  const usage = { inputTokens: 1_000_000, outputTokens: 1_000_000, totalTokens: 2_000_000 };

  it('prices cached reads and cache writes by their own fields, the other input tokens at the input price', () => {
    const m = text({
      inputPerMillionTokens: 10,
      outputPerMillionTokens: 20,
      cachedInputPerMillionTokens: 1,
      cacheWritePerMillionTokens: 12.5,
    });
    expect(textCost(m, usage)).toBe(30);
    // 600k plain input + 300k read + 100k written
    expect(textCost(m, { ...usage, cachedInputTokens: 300_000, cacheCreationInputTokens: 100_000 })).toBe(6 + 0.3 + 1.25 + 20);
  });

  it('without the fields, cached and written tokens cost the input price', () => {
    const m = text({ inputPerMillionTokens: 10, outputPerMillionTokens: 20 });
    expect(textCost(m, { ...usage, cachedInputTokens: 300_000, cacheCreationInputTokens: 100_000 })).toBe(30);
  });
});
