import { pcmAsWav, speechBody, spokenAudio, transcriptionForm } from '../src/audio-request';
import { compareEmbeddings, cosineSimilarity, embeddingsBody } from '../src/embeddings-compare';
import { kindOf } from '../src/model-kind';

/** The Playground's pure rules: which panel offers a model, the similarity of two vectors, the audio requests. */
describe('model kinds from the Gemini-style list', () => {
  it('reads the verbs first, then the default description for the kinds Gemini has no verb for', () => {
    expect(kindOf(['predictLongRunning'], 'v')).toBe('video');
    expect(kindOf(['generateContent', 'streamGenerateContent'], 'sim-chat (text model)')).toBe('text');
    expect(kindOf(['embedContent', 'batchEmbedContents'], 'sim-embed (embedding model)')).toBe('embedding');
    expect(kindOf(['generateContent'], 'sim-image (image model)')).toBe('image');
    expect(kindOf([], 'sim-speech (speech model)')).toBe('speech');
    expect(kindOf([], 'sim-transcribe (transcription model)')).toBe('transcription');
    expect(kindOf([], 'sim-rerank (rerank model)')).toBe('rerank');
    // an operator's own description hides the kind: no panel offers the model, Models still lists it
    expect(kindOf([], 'Our voice')).toBe('other');
    expect(kindOf([], undefined)).toBe('other');
    expect(kindOf([], 'x (banana model)')).toBe('other');
  });
});

describe('embeddings similarity', () => {
  it('asks for both texts in one request, as floats', () => {
    expect(embeddingsBody('sim-embed', 'a cat', 'a dog')).toEqual({
      model: 'sim-embed',
      input: ['a cat', 'a dog'],
      encoding_format: 'float',
    });
  });

  it('is 1 for the same direction, 0 for orthogonal or empty vectors, -1 for opposite, whatever the lengths', () => {
    expect(cosineSimilarity([1, 2, 3], [2, 4, 6])).toBeCloseTo(1, 12);
    expect(cosineSimilarity([1, 0], [0, 5])).toBe(0);
    expect(cosineSimilarity([1, -1], [-3, 3])).toBeCloseTo(-1, 12);
    expect(cosineSimilarity([0, 0], [1, 1])).toBe(0);
    expect(cosineSimilarity([3, 4], [4, 3])).toBeCloseTo(24 / 25, 12);
    expect(() => cosineSimilarity([1, 2], [1, 2, 3])).toThrow('differ in size (2 and 3)');
  });

  it('pairs the vectors by index, not by their place in the array, and reports their size', () => {
    const answer = {
      data: [
        { index: 1, embedding: [0, 1, 0] },
        { index: 0, embedding: [0.6, 0.8, 0] },
      ],
    };
    expect(compareEmbeddings(answer)).toEqual({ similarity: expect.closeTo(0.8, 12), dimensions: 3 });
    expect(() => compareEmbeddings({ data: [{ index: 0, embedding: [1] }] })).toThrow('two vectors');
  });
});

describe('audio requests', () => {
  it('asks for speech in the chosen voice and format', () => {
    expect(speechBody({ model: 'sim-speech', input: 'hello', voice: 'nova', format: 'wav' })).toEqual({
      model: 'sim-speech',
      input: 'hello',
      voice: 'nova',
      response_format: 'wav',
    });
  });

  it('wraps raw 24 kHz 16-bit mono PCM in a WAV header a player reads', () => {
    const pcm = Uint8Array.from([1, 2, 3, 4, 5, 6]);
    const wav = Buffer.from(pcmAsWav(pcm));
    expect(wav.length).toBe(50);
    expect(wav.toString('ascii', 0, 4)).toBe('RIFF');
    expect(wav.readUInt32LE(4)).toBe(42);
    expect(wav.toString('ascii', 8, 16)).toBe('WAVEfmt ');
    expect([wav.readUInt32LE(16), wav.readUInt16LE(20), wav.readUInt16LE(22)]).toEqual([16, 1, 1]);
    expect([wav.readUInt32LE(24), wav.readUInt32LE(28), wav.readUInt16LE(32), wav.readUInt16LE(34)]).toEqual([24000, 48000, 2, 16]);
    expect(wav.toString('ascii', 36, 40)).toBe('data');
    expect(wav.readUInt32LE(40)).toBe(6);
    expect([...wav.subarray(44)]).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('names each format as the transcription API reads it: opus as Ogg, pcm as WAV', async () => {
    const bytes = Uint8Array.from([9, 9]);
    expect(spokenAudio(bytes, 'mp3')).toMatchObject({ name: 'speech.mp3', blob: { type: 'audio/mpeg' } });
    expect(spokenAudio(bytes, 'opus')).toMatchObject({ name: 'speech.ogg', blob: { type: 'audio/ogg' } });
    expect(spokenAudio(bytes, 'flac').name).toBe('speech.flac');
    const pcm = spokenAudio(bytes, 'pcm');
    expect(pcm).toMatchObject({ name: 'speech.wav', blob: { type: 'audio/wav', size: 46 } });
    expect(Buffer.from(await pcm.blob.arrayBuffer()).toString('ascii', 0, 4)).toBe('RIFF');
  });

  it('sends the audio as the one file part, with the model and a json answer', async () => {
    const form = transcriptionForm('sim-transcribe', spokenAudio(Uint8Array.from([1, 2, 3]), 'wav'));
    const file = form.get('file') as File;
    expect(file.name).toBe('speech.wav');
    expect(file.type).toBe('audio/wav');
    expect([...new Uint8Array(await file.arrayBuffer())]).toEqual([1, 2, 3]);
    expect(form.get('model')).toBe('sim-transcribe');
    expect(form.get('response_format')).toBe('json');
    expect([...form.keys()]).toEqual(['file', 'model', 'response_format']);
  });
});
