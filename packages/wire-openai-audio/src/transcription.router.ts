import type { Request, Response } from 'express';
import type { TranscriptionRequest, TranscriptionStreamPart } from '@gateway/core';
import { jsonRequestBody, openAiErrorShape, pumpStream, routeOf, sendWarnings, type KeyedContext } from '@gateway/http-kit';
import { transcriptionForm, transcriptionResponse, translationForm } from './audio.openapi';
import { audioUpload } from './audio-upload';
import type { AudioRouterDeps } from './audio.services';
import { coerceTranscriptionFields, decodeTranscription, uploadedAudio, type UploadedFile } from './transcription.request.codec';
import {
  transcriptionFieldsSchema,
  translationFieldsSchema,
  type TranscriptFormat,
  type TranscriptionFields,
} from './transcription.request.schema';
import { encodeTranscript, transcriptUsage } from './transcription.response.codec';

const FORMAT = 'openai-audio';

/** A form checked by the JSON schema once its fields have their JSON types; documented as the multipart form it is. */
function formBody<B>(schema: object, form: object) {
  const checked = jsonRequestBody<B>(schema, {
    required: true,
    prepare: (raw) => coerceTranscriptionFields((raw ?? {}) as Record<string, unknown>),
  });
  return { ...checked, content: { 'multipart/form-data': form } };
}

function streamEvents(part: TranscriptionStreamPart) {
  if (part.type === 'text-delta') return [{ event: 'transcript.text.delta', data: { type: 'transcript.text.delta', delta: part.delta } }];
  const usage = transcriptUsage(part.result);
  return [{ event: 'transcript.text.done', data: { type: 'transcript.text.done', text: part.result.text, ...(usage ? { usage } : {}) } }];
}

async function transcribe(
  ctx: KeyedContext<AudioRouterDeps> & { body: TranscriptionFields },
  req: Request,
  res: Response,
  task: TranscriptionRequest['task'],
) {
  const { deps, principal, requestId, signal, body } = ctx;
  // the model first: an upload for a model the key cannot use is refused as on chat
  const model = deps.transcription.resolve(principal, body.model);
  const format: TranscriptFormat = body.response_format ?? 'json';
  const request = decodeTranscription(task, body, format, uploadedAudio((req.files as UploadedFile[] | undefined) ?? []));
  const meta = { format: FORMAT, requestId, signal };
  if (body.stream && task === 'transcribe') {
    await pumpStream(res, {
      parts: () => deps.transcription.stream(principal, model, request, meta)[Symbol.asyncIterator](),
      encode: streamEvents,
      renderError: (err) => [{ event: 'error', data: { type: 'error', ...(openAiErrorShape.render(err).body as object) } }],
    });
    return;
  }
  const result = await deps.transcription.answer(principal, model, request, meta);
  sendWarnings(res, result.warnings);
  const { contentType, body: answer } = encodeTranscript(request, format, result);
  res.status(200).type(contentType).send(answer);
}

const route = routeOf<AudioRouterDeps>();

const common = {
  method: 'post',
  format: FORMAT,
  auth: { kind: 'api-key', role: 'member' },
  response: transcriptionResponse,
  errors: 'openai',
  parse: [audioUpload],
} as const;

export const transcriptionRoutes = [
  route({
    ...common,
    path: '/v1/audio/transcriptions',
    summary: 'Transcribe audio',
    description:
      'multipart/form-data with the audio as `file` (flac, m4a, mp3, mp4, mpeg, mpga, oga, ogg, wav, webm; at most 25 MB). ' +
      'json and verbose_json answer JSON; text, srt and vtt plain text. `stream=true` answers `transcript.text.delta` and `transcript.text.done` events.',
    body: formBody<TranscriptionFields>(transcriptionFieldsSchema, transcriptionForm),
    handle: (ctx, req, res) => transcribe(ctx, req, res, 'transcribe'),
  }),
  route({
    ...common,
    path: '/v1/audio/translations',
    summary: 'Translate audio into English text',
    description: 'As transcriptions, without `language`, `timestamp_granularities` or `stream`: the text is English.',
    body: formBody<TranscriptionFields>(translationFieldsSchema, translationForm),
    handle: (ctx, req, res) => transcribe(ctx, req, res, 'translate'),
  }),
];
