import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { GatewayError, warningText, type TextRequest, type TextResult, type TextStreamPart, type Warning } from '@gateway/core';

/** Fixtures keep warnings as the text the edge renders, so they read as the header and the usage log do. */
const asText = <T extends { warnings?: Warning[] }>(x: T) => (x.warnings ? { ...x, warnings: x.warnings.map(warningText) } : x);

/**
 * Golden fixtures of an outbound adapter, one file per case in `__fixtures__/`:
 * - `request.<case>.json`  `{ canonical, stream?, options?, upstream, warnings? }`
 * - `response.<case>.json` `{ options?, upstream, canonical }`
 * - `stream.<case>.sse` (the upstream's bytes) with `stream.<case>.json` `{ options?, canonical } | { options?, error }`
 */
export interface GoldenAdapter {
  request?(canonical: TextRequest, fx: { stream: boolean; options?: Record<string, unknown> }): { body: unknown; warnings: Warning[] };
  response?(upstream: unknown, fx: { options?: Record<string, unknown> }): TextResult;
  stream?(sse: string, fx: { options?: Record<string, unknown> }): AsyncIterable<TextStreamPart>;
}

/** The SSE text as a byte stream cut into small chunks, so framing across chunk edges is exercised too. */
export async function* sseChunks(text: string, size = 17): AsyncGenerator<Uint8Array> {
  const bytes = Buffer.from(text, 'utf8');
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

export function describeGoldenFixtures(name: string, dir: string, adapter: GoldenAdapter): void {
  const files = readdirSync(dir).sort();
  const read = (f: string) => JSON.parse(readFileSync(path.join(dir, f), 'utf8'));
  const cases = (prefix: string, ext: string) =>
    files.filter((f) => f.startsWith(prefix) && f.endsWith(ext)).map((f) => [f.slice(prefix.length, -ext.length), f]);

  describe(`golden fixtures: ${name}`, () => {
    it('has at least one fixture of each kind the adapter maps', () => {
      if (adapter.request) expect(cases('request.', '.json').length).toBeGreaterThan(0);
      if (adapter.response) expect(cases('response.', '.json').length).toBeGreaterThan(0);
      if (adapter.stream) expect(cases('stream.', '.sse').length).toBeGreaterThan(0);
    });

    if (adapter.request) {
      it.each(cases('request.', '.json'))('request in → request out: %s', (_c, f) => {
        const fx = read(f);
        const out = adapter.request!(fx.canonical, { stream: fx.stream ?? false, options: fx.options });
        expect(out.body).toEqual(fx.upstream);
        expect(out.warnings.map(warningText)).toEqual(fx.warnings ?? []);
      });
    }
    if (adapter.response) {
      it.each(cases('response.', '.json'))('response in → response out: %s', (_c, f) => {
        const fx = read(f);
        expect(asText(adapter.response!(fx.upstream, fx))).toEqual(fx.canonical);
      });
    }
    if (adapter.stream) {
      it.each(cases('stream.', '.sse'))('stream in → stream out: %s', async (c, f) => {
        const fx = read(`stream.${c}.json`);
        const sse = readFileSync(path.join(dir, f), 'utf8');
        const parts: TextStreamPart[] = [];
        let error: GatewayError | undefined;
        try {
          for await (const p of adapter.stream!(sse, fx)) parts.push(p.type === 'finish' ? asText(p) : p);
        } catch (e) {
          if (!(e instanceof GatewayError)) throw e;
          error = e;
        }
        if (fx.error) {
          expect(error).toMatchObject(fx.error);
          expect(parts).toEqual(fx.canonical ?? parts);
        } else {
          expect(error).toBeUndefined();
          expect(parts).toEqual(fx.canonical);
        }
      });
    }
  });
}
