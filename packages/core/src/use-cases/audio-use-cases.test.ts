import { checkSpeechCommand, SPEECH_LIMITS } from './speech';
import { checkTranscriptionCommand, estimatedAudioSeconds, TRANSCRIPTION_LIMITS } from './transcription';

function wavHeader(byteRate: number, dataBytes: number): Uint8Array {
  const b = new Uint8Array(44 + dataBytes);
  b.set(
    [...'RIFF'].map((c) => c.charCodeAt(0)),
    0,
  );
  b.set(
    [...'WAVE'].map((c) => c.charCodeAt(0)),
    8,
  );
  new DataView(b.buffer).setUint32(28, byteRate, true);
  return b;
}

describe('speech limits', () => {
  const ok = { input: 'hello', voice: 'alloy', format: 'mp3' as const };
  it('refuses an empty or too long input, too long instructions and speeds outside 0.25-4, naming the field', () => {
    expect(() => checkSpeechCommand(ok)).not.toThrow();
    expect(() => checkSpeechCommand({ ...ok, input: '😀'.repeat(SPEECH_LIMITS.maxInputCharacters) })).not.toThrow();
    for (const [over, param] of [
      [{ input: '' }, 'input'],
      [{ input: 'x'.repeat(4097) }, 'input'],
      [{ instructions: 'x'.repeat(4097) }, 'instructions'],
      [{ speed: 0.2 }, 'speed'],
      [{ speed: 4.5 }, 'speed'],
    ] as const) {
      expect(() => checkSpeechCommand({ ...ok, ...over })).toThrow(expect.objectContaining({ reason: 'invalid_request', param }));
    }
  });
});

describe('transcription limits and the audio length estimate', () => {
  const audio = (data: Uint8Array) => ({ task: 'transcribe' as const, audio: { data, filename: 'a.wav' } });
  it('refuses an empty file, one past 25 MB (413) and a temperature outside 0-1', () => {
    expect(() => checkTranscriptionCommand(audio(new Uint8Array(0)))).toThrow(expect.objectContaining({ param: 'file' }));
    expect(() => checkTranscriptionCommand(audio(new Uint8Array(TRANSCRIPTION_LIMITS.maxFileBytes + 1)))).toThrow(
      expect.objectContaining({ reason: 'payload_too_large', param: 'file' }),
    );
    expect(() => checkTranscriptionCommand({ ...audio(new Uint8Array(8)), temperature: 1.5 })).toThrow(
      expect.objectContaining({ param: 'temperature' }),
    );
  });

  it('reads a WAV from its header and guesses anything else at 128 kbit/s', () => {
    expect(estimatedAudioSeconds(wavHeader(48_000, 96_000))).toBe(2);
    expect(estimatedAudioSeconds(new Uint8Array(32_000))).toBe(2);
  });
});
