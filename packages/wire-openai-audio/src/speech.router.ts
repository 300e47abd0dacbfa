import type { Response } from 'express';
import { estimateTextTokens, type SpeechStreamPart } from '@gateway/core';
import { jsonBody, jsonRequestBody, openAiErrorShape, pumpStream, routeOf, sendWarnings, type KeyedContext } from '@gateway/http-kit';
import { speechResponse } from './audio.openapi';
import type { AudioRouterDeps, SpeechCommand } from './audio.services';
import { pumpAudio } from './audio-pump';
import { speechRequestSchema, type SpeechRequestBody } from './speech.request.schema';

const FORMAT = 'openai-audio';

export function decodeSpeechRequest(body: SpeechRequestBody): SpeechCommand {
  return {
    input: body.input,
    voice: typeof body.voice === 'string' ? body.voice : { id: body.voice.id },
    ...(body.instructions ? { instructions: body.instructions } : {}),
    format: body.response_format ?? 'mp3',
    speed: body.speed ?? 1,
  };
}

const MEDIA_TYPES = { mp3: 'audio/mpeg', opus: 'audio/ogg', aac: 'audio/aac', flac: 'audio/flac', wav: 'audio/wav', pcm: 'audio/pcm' };

async function* audioOf(parts: AsyncIterable<SpeechStreamPart>, res: Response): AsyncGenerator<Uint8Array> {
  for await (const p of parts) {
    if (p.type === 'audio') yield p.data;
    // the headers go with the first chunk: warnings known before it are in them
    else if (p.type === 'warnings' && !res.headersSent) sendWarnings(res, p.warnings);
  }
}

/** `speech.audio.delta` events (the audio in the requested format, base64), then `speech.audio.done` with usage. */
function speechEvents(request: SpeechCommand, res: Response) {
  return (part: SpeechStreamPart) => {
    if (part.type === 'warnings') {
      // encoded before the first event is written: the stream's headers still take them
      if (!res.headersSent) sendWarnings(res, part.warnings);
      return [];
    }
    if (part.type === 'audio') {
      return [{ event: 'speech.audio.delta', data: { type: 'speech.audio.delta', audio: Buffer.from(part.data).toString('base64') } }];
    }
    // the gateway's count: OpenAI's tokens are not what speech is billed by here (characters are)
    const input = estimateTextTokens(request.input);
    const usage = { input_tokens: input, output_tokens: 0, total_tokens: input };
    return [{ event: 'speech.audio.done', data: { type: 'speech.audio.done', usage } }];
  };
}

async function speak(ctx: KeyedContext<AudioRouterDeps> & { body: SpeechRequestBody }, res: Response) {
  const { deps, principal, requestId, signal, body } = ctx;
  const model = deps.speech.resolve(principal, body.model);
  const request = decodeSpeechRequest(body);
  const meta = { format: FORMAT, requestId, signal };
  if (body.stream_format === 'sse') {
    const encode = speechEvents(request, res);
    await pumpStream(res, {
      parts: () => deps.speech.stream(principal, model, request, meta)[Symbol.asyncIterator](),
      encode,
      renderError: (err) => [{ event: 'error', data: { type: 'error', ...(openAiErrorShape.render(err).body as object) } }],
    });
    return;
  }
  await pumpAudio(res, MEDIA_TYPES[request.format], audioOf(deps.speech.stream(principal, model, request, meta), res));
}

const route = routeOf<AudioRouterDeps>();

export const speechRoutes = [
  route({
    method: 'post',
    path: '/v1/audio/speech',
    summary: 'Speak text',
    description:
      'The audio in `response_format` (mp3 by default; pcm is 24 kHz 16-bit little-endian mono without a header), sent as it is made; ' +
      'with `stream_format: "sse"`, `speech.audio.delta` events (base64 audio) and `speech.audio.done` (usage).',
    format: FORMAT,
    auth: { kind: 'api-key', role: 'member' },
    body: jsonRequestBody<SpeechRequestBody>(speechRequestSchema),
    response: speechResponse,
    errors: 'openai',
    parse: [jsonBody()],
    handle: (ctx, _req, res) => speak(ctx, res),
  }),
];
