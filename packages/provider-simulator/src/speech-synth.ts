import { hash } from './simulated-arguments';

/** OpenAI's pcm: 24 kHz, 16-bit, mono. */
export const SPEECH_SAMPLE_RATE = 24_000;
/** Every character (a space too) lasts this long at speed 1, so a word's place in the text is its place in time. */
export const SECONDS_PER_CHARACTER = 0.06;

/** Real vowel formants (Hz), so vowels sound like vowels; other letters get formants derived from their code. */
const VOWELS: Record<string, [number, number]> = {
  a: [730, 1090],
  e: [530, 1840],
  i: [270, 2290],
  o: [570, 840],
  u: [300, 870],
  y: [300, 2200],
};
const FRICATIVES = new Set(['s', 'f', 'h', 'z', 'x', 'c', 'j', 'v']);
const SILENT = /[\s.,;:!?'"()[\]{}\-–—]/;

function formants(ch: string): [number, number] {
  const lower = ch.toLowerCase();
  if (VOWELS[lower]) return VOWELS[lower];
  const code = lower.codePointAt(0) ?? 0;
  return [250 + ((code * 37) % 600), 800 + ((code * 113) % 1800)];
}

/** One period of a voiced sound at pitch f0: harmonics of f0 weighted by resonances at the two formants. */
function periodTable(f0: number, [f1, f2]: [number, number]): Float32Array {
  const size = Math.max(8, Math.round(SPEECH_SAMPLE_RATE / f0));
  const table = new Float32Array(size);
  const resonance = (f: number, centre: number, width: number) => Math.exp(-(((f - centre) / width) ** 2));
  for (let k = 1; k * f0 < 4000; k++) {
    const f = k * f0;
    const amp = resonance(f, f1, 120) + 0.6 * resonance(f, f2, 180) + 0.02 / k;
    for (let n = 0; n < size; n++) table[n]! += amp * Math.sin((2 * Math.PI * k * n) / size);
  }
  let peak = 0;
  for (const v of table) peak = Math.max(peak, Math.abs(v));
  for (let n = 0; n < size; n++) table[n]! /= peak || 1;
  return table;
}

/** The voice's pitch: a built-in name or a custom id, each always the same. */
export function voicePitch(voice: string | { id: string }): number {
  return 90 + (hash(typeof voice === 'string' ? voice : voice.id) % 140);
}

export function speechSeconds(text: string, speed: number): number {
  return ([...text].length * SECONDS_PER_CHARACTER) / speed;
}

/** One character's sound, faded in and out so that characters do not click where they meet. */
function characterSound(ch: string, pitch: number, perChar: number, seed: number): Int16Array {
  const table = periodTable(pitch * (1 + ((ch.codePointAt(0)! % 7) - 3) / 60), formants(ch));
  const fricative = FRICATIVES.has(ch.toLowerCase());
  const fade = Math.max(1, Math.min(Math.floor(perChar / 4), Math.round(SPEECH_SAMPLE_RATE * 0.006)));
  const out = new Int16Array(perChar);
  let noise = seed || 1;
  for (let n = 0; n < perChar; n++) {
    const env = Math.min(1, n / fade, (perChar - 1 - n) / fade);
    let v = table[n % table.length]!;
    if (fricative) {
      noise = (Math.imul(noise, 1664525) + 1013904223) >>> 0;
      v = 0.4 * v + 0.6 * (noise / 0x80000000 - 1);
    }
    out[n] = Math.round(v * env * 0.35 * 32767);
  }
  return out;
}

/**
 * Deterministic "speech" as 24 kHz 16-bit LE mono PCM: per character a short voiced sound (a formant pair over the
 * voice's pitch; a noise burst for fricatives; silence for spaces and punctuation). Length is characters × 60 ms ÷
 * speed. Each distinct character is made once and copied, so the longest input at the slowest speed stays cheap.
 */
export function synthesizeSpeech(text: string, voice: string | { id: string }, speed: number): Buffer {
  const chars = [...text];
  const perChar = Math.max(1, Math.round((SPEECH_SAMPLE_RATE * SECONDS_PER_CHARACTER) / speed));
  const samples = new Int16Array(chars.length * perChar);
  const pitch = voicePitch(voice);
  const sounds = new Map<string, Int16Array>();
  chars.forEach((ch, i) => {
    if (SILENT.test(ch)) return;
    let sound = sounds.get(ch);
    if (!sound) sounds.set(ch, (sound = characterSound(ch, pitch, perChar, hash(ch))));
    samples.set(sound, i * perChar);
  });
  // Int16Array is host-endian: every platform node ships on is little-endian, as pcm must be
  return Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength);
}
