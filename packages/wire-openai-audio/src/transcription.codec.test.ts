import type { TranscriptionResult } from '@gateway/core';
import type { TranscriptionCommand } from './audio.services';
import { toSrt, toVtt } from './subtitles';
import { coerceTranscriptionFields, decodeTranscription, uploadedAudio } from './transcription.request.codec';
import { encodeTranscript } from './transcription.response.codec';

const file = (over: Partial<{ fieldname: string; originalname: string; mimetype: string; buffer: Buffer }> = {}) => ({
  fieldname: 'file',
  originalname: 'speech.mp3',
  mimetype: 'application/octet-stream',
  buffer: Buffer.from('ID3...'),
  ...over,
});

const audio = { data: Buffer.from('x'), filename: 'a.wav' };
const request = (over: Partial<TranscriptionCommand> = {}): TranscriptionCommand => ({ task: 'transcribe', audio, ...over });
const result: TranscriptionResult = {
  text: 'Hello there. General Kenobi.',
  durationSeconds: 3.2,
  language: 'english',
  segments: [
    { start: 0, end: 1.25, text: 'Hello there.' },
    { start: 1.25, end: 3.2, text: 'General Kenobi.' },
  ],
  words: [{ word: 'Hello', start: 0, end: 0.5 }],
  warnings: [],
};

describe('transcription form fields', () => {
  it('gives numbers, booleans and lists their JSON types, whichever way the list was sent', () => {
    expect(
      coerceTranscriptionFields({ temperature: '0.2', stream: 'true', timestamp_granularities: 'word', include: ['logprobs'] }),
    ).toEqual({
      temperature: 0.2,
      stream: true,
      timestamp_granularities: ['word'],
      include: ['logprobs'],
    });
    expect(coerceTranscriptionFields({ temperature: 'hot' }).temperature).toBe('hot');
  });

  it('asks the upstream for segments when the answer needs timing, and for exactly the granularities verbose_json names', () => {
    const fields = { timestamp_granularities: ['word' as const] };
    expect(decodeTranscription('transcribe', fields, 'json', audio).timestampGranularities).toBeUndefined();
    expect(decodeTranscription('transcribe', fields, 'srt', audio).timestampGranularities).toEqual(['segment']);
    expect(decodeTranscription('transcribe', fields, 'verbose_json', audio).timestampGranularities).toEqual(['word']);
    expect(decodeTranscription('transcribe', {}, 'verbose_json', audio).timestampGranularities).toEqual(['segment']);
  });

  it('takes one audio file part by extension or content type, and names `file` in every refusal', () => {
    expect(uploadedAudio([file()])).toMatchObject({ filename: 'speech.mp3' });
    expect(uploadedAudio([file({ originalname: 'blob', mimetype: 'audio/wav' })])).toMatchObject({ mediaType: 'audio/wav' });
    for (const [files, code] of [
      [[], 'missing_field'],
      [[file({ buffer: Buffer.alloc(0) })], 'empty_file'],
      [[file({ originalname: 'notes.txt', mimetype: 'text/plain' })], 'invalid_file_format'],
      [[file(), file()], 'too_many_files'],
    ] as const) {
      expect(() => uploadedAudio([...files])).toThrow(expect.objectContaining({ code, param: 'file' }));
    }
    expect(() => uploadedAudio([file({ fieldname: 'audio' })])).toThrow(expect.objectContaining({ code: 'unknown_field', param: 'audio' }));
  });
});

describe('transcript answers', () => {
  it('json carries text and the billed seconds; a translation only its text', () => {
    expect(JSON.parse(encodeTranscript(request(), 'json', result).body)).toEqual({
      text: result.text,
      usage: { type: 'duration', seconds: 4 },
    });
    expect(JSON.parse(encodeTranscript(request({ task: 'translate' }), 'json', result).body)).toEqual({ text: result.text });
  });

  it('text, srt and vtt are plain text with cues a player loads', () => {
    const srt = encodeTranscript(request(), 'srt', result);
    expect(srt.contentType).toMatch(/^text\/plain/);
    expect(srt.body).toBe('1\n00:00:00,000 --> 00:00:01,250\nHello there.\n\n2\n00:00:01,250 --> 00:00:03,200\nGeneral Kenobi.\n\n');
    expect(encodeTranscript(request(), 'vtt', result).body).toBe(
      'WEBVTT\n\n00:00:00.000 --> 00:00:01.250\nHello there.\n\n00:00:01.250 --> 00:00:03.200\nGeneral Kenobi.\n\n',
    );
    expect(encodeTranscript(request(), 'text', result)).toEqual({ contentType: 'text/plain; charset=utf-8', body: `${result.text}\n` });
  });

  it('verbose_json has the task, language, duration and the granularities asked for', () => {
    const both = JSON.parse(encodeTranscript(request({ timestampGranularities: ['word', 'segment'] }), 'verbose_json', result).body);
    expect(both).toMatchObject({ task: 'transcribe', language: 'english', duration: 3.2, text: result.text, words: result.words });
    expect(both.segments[1]).toMatchObject({ id: 1, start: 1.25, end: 3.2, text: 'General Kenobi.', tokens: [] });
    const words = JSON.parse(encodeTranscript(request({ timestampGranularities: ['word'] }), 'verbose_json', result).body);
    expect(words.segments).toBeUndefined();
    expect(JSON.parse(encodeTranscript(request({ task: 'translate' }), 'verbose_json', result).body).task).toBe('translate');
  });

  it('an upstream without segments still gives one cue over the audio, and token usage where it counted tokens', () => {
    const plain = { text: 'hi', durationSeconds: 2, warnings: [], usage: { inputTokens: 30, outputTokens: 2 } };
    expect(encodeTranscript(request(), 'srt', plain).body).toBe('1\n00:00:00,000 --> 00:00:02,000\nhi\n\n');
    expect(JSON.parse(encodeTranscript(request(), 'json', plain).body).usage).toMatchObject({
      type: 'tokens',
      input_tokens: 30,
      total_tokens: 32,
    });
  });

  it('cue text cannot end a cue early', () => {
    expect(toVtt([{ start: 3661.5, end: 3662, text: 'a --> b\n\nc' }])).toBe('WEBVTT\n\n01:01:01.500 --> 01:01:02.000\na -> b\nc\n\n');
    expect(toSrt([])).toBe('');
  });
});
