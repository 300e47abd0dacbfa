import type { Principal } from '../auth';
import type { GatewayError } from '../errors';
import { GuardrailSet, type GuardrailHit, type GuardrailSpec } from '../guardrails/guardrail';
import type { TextStreamPart } from '../text';
import { Guardrails, type GuardrailCall } from './guardrails';

const principal: Principal = { accountId: 'acct', keyId: 'key', group: 'g' };

const words: GuardrailSpec = { id: 'words', type: 'regex', on: 'output', patterns: ['forbidden'] };
const email: GuardrailSpec = { id: 'email', type: 'pii', mode: 'mask', on: 'output', entities: ['email'] };
const audit: GuardrailSpec = { id: 'audit', type: 'regex', mode: 'log', on: 'output', patterns: ['(?i)quarterly'] };
const titan: GuardrailSpec = { id: 'titan', type: 'regex', mode: 'mask', on: 'output', patterns: ['project titan'] };

/** `text` cut into chunks of 1 to `max` characters, the same cut every run. */
function chunks(text: string, max = 9): string[] {
  const out: string[] = [];
  let seed = 7;
  for (let at = 0; at < text.length;) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const n = 1 + (seed % max);
    out.push(text.slice(at, at + n));
    at += n;
  }
  return out;
}

const textOf = (parts: readonly TextStreamPart[]) => parts.map((p) => (p.type === 'text-delta' ? p.delta : '')).join('');

/**
 * Streams `deltas` as text deltas through the output scanner of `specs`: what it forwarded, the error that ended it,
 * the hits, and the most characters it held back at any point (received minus released; meaningful when nothing is
 * masked, since a placeholder's length is not its match's).
 */
async function scan(specs: GuardrailSpec[], deltas: readonly string[]) {
  const call: GuardrailCall = { principal, model: 'm', requestId: 'req_1', format: 'test', signal: new AbortController().signal, hits: [] };
  const scanner = new Guardrails({ guardrails: new GuardrailSet() }).streamScanner(specs, call);
  let received = 0;
  let text = '';
  let mostHeld = 0;
  let error: GatewayError | undefined;
  for (const delta of deltas) {
    received += delta.length;
    const r = scanner.push({ type: 'text-delta', delta });
    text += textOf(r.parts);
    mostHeld = Math.max(mostHeld, received - text.length);
    if ((error = r.blocked)) break;
  }
  if (!error) {
    const r = await scanner.end();
    text += textOf(r.parts);
    error = r.blocked;
  }
  return { text, error, hits: call.hits as GuardrailHit[], mostHeld };
}

describe('output guardrails on a stream share one window', () => {
  const long = 'The team met on Tuesday to go over the roadmap; nothing of note was said. '.repeat(80);

  it('holds back at most 256 characters in all, with two and with three regex/pii guardrails', async () => {
    for (const specs of [
      [words, email],
      [words, email, audit],
      [email, titan, words],
    ]) {
      const r = await scan(specs, chunks(long));
      expect(r.text).toBe(long);
      expect(r.error).toBeUndefined();
      expect(r.mostHeld).toBeLessThanOrEqual(256);
      // and it does hold back: a match up to 256 characters long is seen whole
      expect(r.mostHeld).toBeGreaterThanOrEqual(256 - 9);
    }
  });

  it('holds back at most 256 characters while a log guardrail matches along the way', async () => {
    const text = `${long}Quarterly numbers follow. ${long}the quarterly report. ${long}`;
    const r = await scan([email, audit, words], chunks(text, 5));
    expect(r.text).toBe(text);
    expect(r.mostHeld).toBeLessThanOrEqual(256);
    expect(r.hits).toEqual([{ guardrail: 'audit', mode: 'log', phase: 'output', action: 'logged' }]);
  });

  it('ends the stream before a match split over chunks, the text before it forwarded and masked by the others', async () => {
    const before = `${long}write to bob.smith@example.com about the `;
    for (const specs of [
      [words, email],
      [email, words, audit],
    ]) {
      const r = await scan(specs, [...chunks(before), 'for', 'bid', 'den plan', ' and more']);
      expect(r.error?.code).toBe('guardrail_blocked');
      expect(r.error?.message).toContain('words');
      // a block listed before a mask does not let the text before its match out unmasked
      expect(r.text).toBe(`${long}write to [EMAIL] about the `);
      expect(r.hits).toEqual([
        { guardrail: 'email', mode: 'mask', phase: 'output', action: 'masked' },
        { guardrail: 'words', mode: 'block', phase: 'output', action: 'blocked' },
      ]);
    }
  });

  it('masks matches split over chunks, with three guardrails, never forwarding a character of them', async () => {
    const text = `${long}mail ann@example.org on project titan${long} and bob@example.com then.`;
    const r = await scan([words, email, titan], chunks(text, 3));
    expect(r.text).toBe(`${long}mail [EMAIL] on [REDACTED]${long} and [EMAIL] then.`);
    expect(r.error).toBeUndefined();
    expect(r.hits.map((h) => h.guardrail)).toEqual(['email', 'titan']);
  });

  it('runs the guardrails in order, each on what the ones before it masked, as a non-streamed check does', async () => {
    const example: GuardrailSpec = { id: 'example', type: 'regex', on: 'output', patterns: ['example'] };
    const text = `${long}write to bob@example.com today`;
    const masked = await scan([email, example], chunks(text));
    expect(masked.error).toBeUndefined();
    expect(masked.text).toBe(`${long}write to [EMAIL] today`);
    const blocked = await scan([example, email], chunks(text));
    expect(blocked.error?.code).toBe('guardrail_blocked');
    expect(blocked.text).toBe(`${long}write to bob@`);
  });

  it('gives what a check of the whole text gives, for any chunking', async () => {
    const specs = [email, audit, titan];
    const text = `project titan: mail jane.doe@example.org, ${'filler text '.repeat(30)}quarterly: ann@example.com on project titan.`;
    const call: GuardrailCall = { principal, model: 'm', requestId: 'r', format: 'test', signal: new AbortController().signal, hits: [] };
    const [whole] = await new Guardrails({ guardrails: new GuardrailSet() }).check(specs, 'output', [text], call);
    for (const size of [1, 2, 3, 7, 50, 1000]) {
      const r = await scan(specs, text.match(new RegExp(`[^]{1,${size}}`, 'g'))!);
      expect(r.text).toBe(whole);
      // the same hits, a stream's in the order it met them
      const ids = (hits: readonly GuardrailHit[]) => hits.map((h) => `${h.guardrail}:${h.action}`).sort();
      expect(ids(r.hits)).toEqual(ids(call.hits));
    }
  });
});
