/** SubRip and WebVTT from timed segments: what a player loads next to the audio. */

export interface TimedText {
  start: number;
  end: number;
  text: string;
}

function clock(seconds: number, separator: ',' | '.'): string {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor(ms / 60_000) % 60;
  const s = Math.floor(ms / 1000) % 60;
  return `${pad(h)}:${pad(m)}:${pad(s)}${separator}${pad(ms % 1000, 3)}`;
}

/** A cue's text may not hold a blank line (it would end the cue), nor, in WebVTT, a `-->`. */
const cueText = (t: string) =>
  t
    .trim()
    .replace(/\n\s*\n/g, '\n')
    .replace(/-->/g, '->');

export function toSrt(segments: TimedText[]): string {
  return (
    segments.map((s, i) => `${i + 1}\n${clock(s.start, ',')} --> ${clock(s.end, ',')}\n${cueText(s.text)}\n`).join('\n') +
    (segments.length ? '\n' : '')
  );
}

export function toVtt(segments: TimedText[]): string {
  return `WEBVTT\n\n${segments.map((s) => `${clock(s.start, '.')} --> ${clock(s.end, '.')}\n${cueText(s.text)}\n`).join('\n')}${segments.length ? '\n' : ''}`;
}
