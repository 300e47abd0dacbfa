import {
  invalid,
  type CallContext,
  type TranscriptionModelPort,
  type TranscriptionRequest,
  type TranscriptionResult,
  type TranscriptionStreamPart,
} from '@gateway/provider-kit';
import { decodeAudio } from './audio-codec';
import { heardText, timeTranscript } from './transcript-timing';
import { readWav, spokenTextOf } from './wav-file';

const LANGUAGES: Record<string, string> = {
  en: 'english',
  de: 'german',
  fr: 'french',
  es: 'spanish',
  it: 'italian',
  ja: 'japanese',
  zh: 'chinese',
};

/** verbose_json names the language in full, as Whisper does. */
const languageName = (code: string | undefined) => (code ? (LANGUAGES[code.toLowerCase()] ?? code) : 'english');

/** The audio's real length and, for a file the simulator spoke, its words. */
async function listen(req: TranscriptionRequest, signal: AbortSignal): Promise<{ durationSeconds: number; spoken?: string }> {
  const decoded = readWav(req.audio.data) ?? (await decodeAudio(req.audio.data, signal));
  if (!decoded) {
    throw invalid(
      'invalid_file_format',
      'The file could not be decoded as audio (flac, m4a, mp3, mp4, mpeg, mpga, oga, ogg, wav, webm).',
      'file',
    );
  }
  return { durationSeconds: decoded.durationSeconds, spoken: spokenTextOf(decoded.comment) };
}

/**
 * Speech the simulator made comes back as the words it spoke; any other audio as a deterministic text from its
 * bytes, as long as the audio is. Words and segments are timed inside the real duration. Translation leaves the
 * text as it is (the simulator speaks English).
 */
export class SimulatorTranscriptionModel implements TranscriptionModelPort {
  async transcribe(req: TranscriptionRequest, ctx: CallContext): Promise<TranscriptionResult> {
    const { durationSeconds, spoken } = await listen(req, ctx.signal);
    const text = (spoken ?? heardText(req.audio.data, durationSeconds)).trim();
    const granularities = req.timestampGranularities ?? [];
    const timed = granularities.length ? timeTranscript(text, durationSeconds) : undefined;
    return {
      text,
      language: req.task === 'translate' ? 'english' : languageName(req.language),
      durationSeconds,
      ...(timed && granularities.includes('segment') ? { segments: timed.segments } : {}),
      ...(timed && granularities.includes('word') ? { words: timed.words } : {}),
      warnings: [],
    };
  }

  async *stream(req: TranscriptionRequest, ctx: CallContext): AsyncGenerator<TranscriptionStreamPart> {
    const result = await this.transcribe(req, ctx);
    const words = result.text.split(/(?<=\s)/);
    for (const delta of words) yield { type: 'text-delta', delta };
    yield { type: 'finish', result };
  }
}
