/**
 * A fake OpenAI audio upstream, after the API reference (openai-openapi 2.3.0): `POST /v1/audio/speech` (strict
 * JSON; the audio chunked, or `speech.audio.*` events), `POST /v1/audio/transcriptions` and `/translations`
 * (multipart; json, text, srt, vtt, verbose_json; gpt-4o-*transcribe answer json or text only and stream
 * `transcript.text.*` events). The "audio" is text bytes that say what was asked; a transcript says which file it heard.
 */
import type http from 'node:http';
import {
  bearerRoutes,
  readJson,
  readMultipart,
  sendJson,
  startFakeHttp,
  type FakeHttpRequest,
  type FakeHttpServer,
} from '@gateway/testkit';
import { openAiErrorBody as errorBody } from './fake-openai-error';

export interface FakeOpenAiAudio {
  /** baseUrl as the openai SDK takes it: ends in /v1 */
  url: string;
  apiKey: string;
  api: FakeHttpServer;
  /** the JSON bodies of speech requests */
  speechBodies(): Record<string, unknown>[];
  /** the fields of transcription and translation forms (testkit's readMultipart: lists as arrays, the file as {name, type, size, bytes}) */
  forms(): Promise<Array<Record<string, unknown>>>;
  /** speech answers held open (input starting with HOLD_SPEECH) whose caller closed the connection */
  abandoned(): number;
  close(): Promise<void>;
}

const SPEECH_FIELDS = ['model', 'input', 'voice', 'instructions', 'response_format', 'speed', 'stream_format'];
const AUDIO_TYPES: Record<string, string> = {
  mp3: 'audio/mpeg',
  opus: 'audio/opus',
  aac: 'audio/aac',
  flac: 'audio/flac',
  wav: 'audio/wav',
  pcm: 'audio/pcm',
};

/** An input that starts with this gets one chunk of audio and then a connection held open until the caller leaves. */
export const HOLD_SPEECH = '[hold]';

/** The fake's "audio": what was asked, repeated to a few chunks' worth so that it arrives in pieces. */
export const fakeSpeechBytes = (format: string, input: string) => Buffer.from(`FAKE-${format}:${input}|`.repeat(2000));

function refuseSpeech(b: Record<string, unknown> | undefined): [string, string] | undefined {
  if (!b) return ['We could not parse the JSON body of your request.', 'body'];
  const unknown = Object.keys(b).find((k) => !SPEECH_FIELDS.includes(k));
  if (unknown) return [`Unrecognized request argument supplied: ${unknown}`, unknown];
  if (typeof b.input !== 'string' || b.input.length > 4096) return ["'input' must be a string of at most 4096 characters.", 'input'];
  if (b.voice === undefined) return ["Missing required parameter: 'voice'.", 'voice'];
  if (b.response_format !== undefined && !(String(b.response_format) in AUDIO_TYPES))
    return ['Invalid response_format.', 'response_format'];
  if (b.speed !== undefined && (typeof b.speed !== 'number' || b.speed < 0.25 || b.speed > 4))
    return ['speed must be between 0.25 and 4.', 'speed'];
  if (b.instructions !== undefined && String(b.model).startsWith('tts-1'))
    return ['Instructions are not supported for tts-1 models.', 'instructions'];
  return undefined;
}

function speech(r: FakeHttpRequest, res: http.ServerResponse, onAbandoned: () => void) {
  const b = readJson(r);
  const refused = refuseSpeech(b);
  if (refused) return sendJson(res, 400, errorBody(400, ...refused));
  const format = String(b!.response_format ?? 'mp3');
  const bytes = fakeSpeechBytes(format, String(b!.input));
  if (String(b!.input).startsWith(HOLD_SPEECH)) {
    res.writeHead(200, { 'content-type': AUDIO_TYPES[format]! });
    res.write(bytes.subarray(0, 8192));
    return void res.on('close', () => !res.writableEnded && onAbandoned());
  }
  if (b!.stream_format === 'sse') {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'x-request-id': 'req_fake_speech' });
    for (let at = 0; at < bytes.length; at += 8192) {
      res.write(`data: ${JSON.stringify({ type: 'speech.audio.delta', audio: bytes.subarray(at, at + 8192).toString('base64') })}\n\n`);
    }
    const usage = { input_tokens: Math.ceil(String(b!.input).length / 4), output_tokens: 100, total_tokens: 0 };
    usage.total_tokens = usage.input_tokens + usage.output_tokens;
    return void res.end(`data: ${JSON.stringify({ type: 'speech.audio.done', usage })}\n\n`);
  }
  // chunked: no content-length, as OpenAI streams audio
  res.writeHead(200, { 'content-type': AUDIO_TYPES[format]!, 'x-request-id': 'req_fake_speech' });
  for (let at = 0; at < bytes.length; at += 8192) res.write(bytes.subarray(at, at + 8192));
  res.end();
}

const SECONDS = 3.5;
const segments = (text: string) => [
  {
    id: 0,
    seek: 0,
    start: 0,
    end: 1.5,
    text: text.split('. ')[0]!,
    tokens: [50364],
    temperature: 0,
    avg_logprob: -0.2,
    compression_ratio: 1.1,
    no_speech_prob: 0.01,
  },
  {
    id: 1,
    seek: 0,
    start: 1.5,
    end: SECONDS,
    text: text.split('. ').slice(1).join('. '),
    tokens: [50365],
    temperature: 0,
    avg_logprob: -0.3,
    compression_ratio: 1.1,
    no_speech_prob: 0.01,
  },
];
const words = (text: string) =>
  text.split(' ').map((word, i, all) => ({ word, start: (i * SECONDS) / all.length, end: ((i + 1) * SECONDS) / all.length }));
const cue = (sep: string) => (s: { start: number; end: number; text: string }) =>
  `00:00:0${s.start.toFixed(3).replace('.', sep)} --> 00:00:0${s.end.toFixed(3).replace('.', sep)}\n${s.text}`;

function transcript(task: 'transcribe' | 'translate', f: Record<string, unknown>, res: http.ServerResponse) {
  const file = f.file as { name: string; size: number } | undefined;
  if (!file || typeof file !== 'object') return sendJson(res, 400, errorBody(400, "Missing required parameter: 'file'.", 'file'));
  if (!/\.(flac|m4a|mp3|mp4|mpeg|mpga|oga|ogg|wav|webm)$/i.test(file.name)) {
    return sendJson(
      res,
      400,
      errorBody(
        400,
        "Invalid file format. Supported formats: ['flac', 'm4a', 'mp3', 'mp4', 'mpeg', 'mpga', 'oga', 'ogg', 'wav', 'webm']",
        'file',
      ),
    );
  }
  const model = String(f.model ?? '');
  const gpt4o = model.startsWith('gpt-4o');
  const format = String(f.response_format ?? 'json');
  if (gpt4o && format !== 'json' && format !== 'text') {
    return sendJson(
      res,
      400,
      errorBody(400, `response_format '${format}' is not compatible with model '${model}'. Use 'json' or 'text'.`, 'response_format'),
    );
  }
  const text = `Heard ${file.name} of ${file.size} bytes. ${task === 'translate' ? 'In English' : 'Spoken'} by ${model}`;
  const usage = gpt4o
    ? { type: 'tokens', input_tokens: 40, input_token_details: { text_tokens: 0, audio_tokens: 40 }, output_tokens: 12, total_tokens: 52 }
    : { type: 'duration', seconds: Math.ceil(SECONDS) };
  const headers = { 'x-request-id': 'req_fake_transcription' };
  if (f.stream === 'true' && gpt4o && task === 'transcribe') {
    res.writeHead(200, { 'content-type': 'text/event-stream', ...headers });
    for (const delta of text.split(/(?<= )/)) res.write(`data: ${JSON.stringify({ type: 'transcript.text.delta', delta })}\n\n`);
    return void res.end(`data: ${JSON.stringify({ type: 'transcript.text.done', text, usage })}\n\n`);
  }
  const plain = (body: string) => {
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', ...headers });
    res.end(body);
  };
  if (format === 'text') return plain(`${text}\n`);
  if (format === 'srt')
    return plain(
      segments(text)
        .map((s, i) => `${i + 1}\n${cue(',')(s)}\n`)
        .join('\n'),
    );
  if (format === 'vtt') return plain(`WEBVTT\n\n${segments(text).map(cue('.')).join('\n\n')}\n`);
  if (format === 'verbose_json') {
    const granularities = (f.timestamp_granularities as string[] | undefined) ?? ['segment'];
    return sendJson(
      res,
      200,
      {
        task,
        language: task === 'translate' ? 'english' : String(f.language ?? 'english'),
        duration: SECONDS,
        text,
        ...(granularities.includes('word') ? { words: words(text) } : {}),
        ...(granularities.includes('segment') ? { segments: segments(text) } : {}),
        usage,
      },
      headers,
    );
  }
  sendJson(res, 200, { text, ...(task === 'transcribe' ? { usage } : {}) }, headers);
}

export async function startFakeOpenAiAudio(opts: { apiKey?: string } = {}): Promise<FakeOpenAiAudio> {
  const apiKey = opts.apiKey ?? 'sk-fake-audio-0001';
  let abandoned = 0;
  const authed = bearerRoutes(apiKey, errorBody, 'Incorrect API key provided.');
  const api = await startFakeHttp(
    [
      { kind: 'create', method: 'POST', pattern: /^\/v1\/audio\/speech$/, handle: authed((r, res) => speech(r, res, () => abandoned++)) },
      {
        kind: 'create',
        method: 'POST',
        pattern: /^\/v1\/audio\/transcriptions$/,
        handle: authed(async (r, res) => transcript('transcribe', await readMultipart(r), res)),
      },
      {
        kind: 'create',
        method: 'POST',
        pattern: /^\/v1\/audio\/translations$/,
        handle: authed(async (r, res) => transcript('translate', await readMultipart(r), res)),
      },
    ],
    errorBody,
  );
  return {
    url: `${api.origin}/v1`,
    apiKey,
    api,
    speechBodies: () => api.requests.filter((r) => r.path.endsWith('/speech')).map((r) => readJson(r) ?? {}),
    forms: () => Promise.all(api.requests.filter((r) => !r.path.endsWith('/speech')).map(readMultipart)),
    abandoned: () => abandoned,
    close: () => api.close(),
  };
}
