import {
  GatewayError,
  type CallContext,
  type SpeechModelPort,
  type SpeechRequest,
  type SpeechResult,
  type SpeechStreamPart,
} from '@gateway/provider-kit';
import { encodePcm } from './audio-codec';
import { FAIL_MARKER } from './simulator-text-model';
import { SPEECH_SAMPLE_RATE, synthesizeSpeech } from './speech-synth';
import { spokenComment, wavFile } from './wav-file';

const MEDIA_TYPES = { mp3: 'audio/mpeg', opus: 'audio/ogg', aac: 'audio/aac', flac: 'audio/flac', wav: 'audio/wav', pcm: 'audio/pcm' };
/** what natively made audio is streamed in */
const CHUNK_BYTES = 16 * 1024;

function* chunks(data: Buffer): Generator<Buffer> {
  for (let at = 0; at < data.length; at += CHUNK_BYTES) yield data.subarray(at, at + CHUNK_BYTES);
}

/** The file's bytes as they are made: WAV and PCM at once, the others as ffmpeg encodes them. */
function audioOf(req: SpeechRequest, signal: AbortSignal): Iterable<Buffer> | AsyncIterable<Buffer> {
  if (req.input.includes(FAIL_MARKER)) {
    throw new GatewayError('upstream_error', `The simulator was asked to fail (${FAIL_MARKER} in the input).`, {
      code: 'simulated_failure',
    });
  }
  const pcm = synthesizeSpeech(req.input, req.voice, req.speed ?? 1);
  const comment = spokenComment(req.input);
  if (req.format === 'pcm') return chunks(pcm);
  if (req.format === 'wav') return chunks(wavFile(pcm, SPEECH_SAMPLE_RATE, comment));
  return encodePcm(pcm, req.format, comment, signal);
}

/**
 * Real audio in every format: a formant "voice" per character (speech-synth.ts), WAV and PCM natively, the others
 * through the bundled ffmpeg. Every format with tags (all but aac and pcm) carries the spoken text in its comment,
 * which the simulator's transcriber reads back.
 */
export class SimulatorSpeechModel implements SpeechModelPort {
  async speak(req: SpeechRequest, ctx: CallContext): Promise<SpeechResult> {
    const parts: Buffer[] = [];
    for await (const c of audioOf(req, ctx.signal)) parts.push(c);
    return { audio: Buffer.concat(parts), mediaType: MEDIA_TYPES[req.format], warnings: [] };
  }

  async *stream(req: SpeechRequest, ctx: CallContext): AsyncGenerator<SpeechStreamPart> {
    for await (const data of audioOf(req, ctx.signal)) yield { type: 'audio', data };
    yield { type: 'finish', warnings: [] };
  }
}
