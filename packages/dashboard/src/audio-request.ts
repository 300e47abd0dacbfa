/** The pure side of the Playground's audio panel: the speech request, playable audio and the transcription form. */

/** OpenAI's built-in voices; the simulator gives each its own pitch. */
export const VOICES = ['alloy', 'ash', 'ballad', 'coral', 'echo', 'fable', 'nova', 'onyx', 'sage', 'shimmer', 'verse'] as const;
export const SPEECH_FORMATS = ['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'] as const;
export type SpeechFormat = (typeof SPEECH_FORMATS)[number];

/** POST /v1/audio/speech: the whole file in one answer (no `stream_format`). */
export function speechBody(s: { model: string; input: string; voice: string; format: SpeechFormat }) {
  return { model: s.model, input: s.input, voice: s.voice, response_format: s.format };
}

/** OpenAI's `pcm` is raw 24 kHz 16-bit little-endian mono samples. */
export const PCM_SAMPLE_RATE = 24_000;

/** Raw PCM behind a 44-byte WAV header, so an `<audio>` element can play it and the transcription API can read it. */
export function pcmAsWav(pcm: Uint8Array, sampleRate = PCM_SAMPLE_RATE): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(44 + pcm.length);
  const view = new DataView(out.buffer);
  const ascii = (at: number, s: string) => [...s].forEach((c, i) => view.setUint8(at + i, c.charCodeAt(0)));
  ascii(0, 'RIFF');
  view.setUint32(4, 36 + pcm.length, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 16, true); // fmt chunk size
  view.setUint16(20, 1, true); // integer PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * 2, true); // bytes per second
  view.setUint16(32, 2, true); // bytes per frame
  view.setUint16(34, 16, true); // bits per sample
  ascii(36, 'data');
  view.setUint32(40, pcm.length, true);
  out.set(pcm, 44);
  return out;
}

/**
 * The file name and content type each format travels under. Opus comes in an Ogg container; pcm is played and sent
 * as WAV. The transcription API takes no aac (OpenAI's list has no ADTS), and says so when asked.
 */
const FILES: Record<SpeechFormat, { name: string; type: string }> = {
  mp3: { name: 'speech.mp3', type: 'audio/mpeg' },
  opus: { name: 'speech.ogg', type: 'audio/ogg' },
  aac: { name: 'speech.aac', type: 'audio/aac' },
  flac: { name: 'speech.flac', type: 'audio/flac' },
  wav: { name: 'speech.wav', type: 'audio/wav' },
  pcm: { name: 'speech.wav', type: 'audio/wav' },
};

export interface SpokenAudio {
  blob: Blob;
  name: string;
}

/** The speech answer's bytes as a file a page can play, download and send for transcription. */
export function spokenAudio(bytes: Uint8Array<ArrayBuffer>, format: SpeechFormat): SpokenAudio {
  const file = FILES[format];
  const data = format === 'pcm' ? pcmAsWav(bytes) : bytes;
  return { blob: new Blob([data], { type: file.type }), name: file.name };
}

/** The multipart body of POST /v1/audio/transcriptions; the browser sets its boundary. */
export function transcriptionForm(model: string, audio: SpokenAudio): FormData {
  const form = new FormData();
  form.append('file', audio.blob, audio.name);
  form.append('model', model);
  form.append('response_format', 'json');
  return form;
}
