import { createHash } from 'node:crypto';

export interface TranscriptWord {
  word: string;
  start: number;
  end: number;
}

export interface TranscriptSegment {
  start: number;
  end: number;
  text: string;
}

/** Words a file the simulator did not speak is "heard" as: plain and short, so subtitles read naturally. */
const LEXICON = (
  'the a river morning light over quiet city signal we they build small bright window road music answer ' +
  'listen careful story open green field slowly under north harbour voice paper garden evening travel ' +
  'simple number clear water before after table winter summer market people find keep bring across'
).split(' ');

const WORDS_PER_SECOND = 2.5;
const WORDS_PER_SEGMENT = 10;

/** A deterministic text for unknown audio: the file's hash picks the words, its duration sets how many. */
export function heardText(data: Uint8Array, durationSeconds: number): string {
  const digest = createHash('sha256').update(data).digest();
  const count = Math.max(1, Math.round(durationSeconds * WORDS_PER_SECOND));
  const words: string[] = [];
  for (let i = 0; i < count; i++) {
    const word = LEXICON[(digest[i % digest.length]! + i * 7 + Math.floor(i / digest.length) * 13) % LEXICON.length]!;
    const first = i % WORDS_PER_SEGMENT === 0;
    const last = i % WORDS_PER_SEGMENT === WORDS_PER_SEGMENT - 1 || i === count - 1;
    words.push((first ? word[0]!.toUpperCase() + word.slice(1) : word) + (last ? '.' : ''));
  }
  return words.join(' ');
}

const round = (n: number) => Math.round(n * 1000) / 1000;

/**
 * Words and segments timed inside the audio: each word where its characters fall in the text, spread over the
 * duration (the simulator's speech spends the same time on every character), segments ending at sentence ends.
 */
export function timeTranscript(text: string, durationSeconds: number): { words: TranscriptWord[]; segments: TranscriptSegment[] } {
  const length = Math.max(1, [...text].length);
  const at = (offset: number) => round((offset / length) * durationSeconds);
  const words: Array<TranscriptWord & { sentenceEnd: boolean; from: number; to: number }> = [];
  const chars = [...text];
  let i = 0;
  while (i < chars.length) {
    while (i < chars.length && /\s/.test(chars[i]!)) i++;
    const from = i;
    while (i < chars.length && !/\s/.test(chars[i]!)) i++;
    if (i === from) break;
    const raw = chars.slice(from, i).join('');
    const word = raw.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '') || raw;
    words.push({ word, start: at(from), end: at(i), sentenceEnd: /[.!?]["')\]]*$/.test(raw), from, to: i });
  }
  const segments: TranscriptSegment[] = [];
  let first = 0;
  words.forEach((w, k) => {
    if (!(w.sentenceEnd || k - first === WORDS_PER_SEGMENT * 2 - 1 || k === words.length - 1)) return;
    const head = words[first]!;
    segments.push({ start: head.start, end: w.end, text: chars.slice(head.from, w.to).join('') });
    first = k + 1;
  });
  return { words: words.map(({ word, start, end }) => ({ word, start, end })), segments };
}
