import { invalid, type TranscriptionRequest } from '@gateway/core';
import type { TranscriptionCommand } from './audio.services';
import type { TranscriptFormat, TranscriptionFields } from './transcription.request.schema';

type Fields = Record<string, unknown>;

/** What multer leaves in req.files. */
export interface UploadedFile {
  fieldname: string;
  originalname: string;
  mimetype: string;
  buffer: Buffer;
}

const LIST_FIELDS = ['timestamp_granularities', 'include', 'languages', 'keywords'];

/**
 * Form fields are strings: `temperature` becomes a number and `stream` a boolean, and a list sent as `key[]`
 * (multer already reads those as arrays) or as a plain repeated or single `key` becomes an array, so one schema
 * checks every client's encoding.
 */
export function coerceTranscriptionFields(body: Fields): Fields {
  const out: Fields = { ...body };
  const t = out.temperature;
  if (typeof t === 'string' && t.trim() !== '' && Number.isFinite(Number(t))) out.temperature = Number(t);
  if (out.stream === 'true' || out.stream === 'false') out.stream = out.stream === 'true';
  for (const k of LIST_FIELDS) if (typeof out[k] === 'string') out[k] = [out[k]];
  return out;
}

/** The formats OpenAI takes, by file extension (and the content types that name them). */
const EXTENSIONS = ['flac', 'm4a', 'mp3', 'mp4', 'mpeg', 'mpga', 'oga', 'ogg', 'wav', 'webm'];
const MEDIA_TYPES = /^audio\/(flac|x-flac|mp4|m4a|x-m4a|mpeg|mp3|mpga|ogg|opus|wav|x-wav|wave|vnd\.wave|webm)$|^video\/(mp4|mpeg|webm)$/;

/** The one `file` part, checked as OpenAI checks it before any upstream call: present, not empty, an audio format. */
export function uploadedAudio(files: UploadedFile[]): TranscriptionRequest['audio'] {
  const other = files.find((f) => f.fieldname !== 'file');
  if (other)
    throw invalid(
      'unknown_field',
      `Unknown file field "${other.fieldname.slice(0, 100)}"; send the audio as "file".`,
      other.fieldname.slice(0, 100),
    );
  const audio = files.filter((f) => f.fieldname === 'file');
  if (audio.length === 0) throw invalid('missing_field', 'Missing required field "file": send the audio as a file part.', 'file');
  if (audio.length > 1) throw invalid('too_many_files', 'Send one "file".', 'file');
  const f = audio[0]!;
  if (f.buffer.length === 0) throw invalid('empty_file', 'The uploaded file is empty.', 'file');
  const ext = /\.([a-z0-9]+)$/i.exec(f.originalname)?.[1]?.toLowerCase();
  if (!(ext && EXTENSIONS.includes(ext)) && !MEDIA_TYPES.test(f.mimetype.toLowerCase())) {
    throw invalid('invalid_file_format', `Invalid file format. Supported formats: ${EXTENSIONS.map((e) => `'${e}'`).join(', ')}.`, 'file');
  }
  return { data: f.buffer, filename: f.originalname, ...(f.mimetype ? { mediaType: f.mimetype } : {}) };
}

/** Formats that need the audio's timing (segments, and words when asked): the upstream is asked for them. */
const TIMED: ReadonlySet<TranscriptFormat> = new Set(['srt', 'vtt', 'verbose_json']);

/** The canonical request of a checked form (translations have no language, granularities or stream). */
export function decodeTranscription(
  task: TranscriptionRequest['task'],
  fields: Pick<TranscriptionFields, 'prompt' | 'temperature' | 'language' | 'timestamp_granularities'>,
  format: TranscriptFormat,
  audio: TranscriptionRequest['audio'],
): TranscriptionCommand {
  const granularities = new Set<'word' | 'segment'>(TIMED.has(format) ? ['segment'] : []);
  if (format === 'verbose_json' && fields.timestamp_granularities?.length) {
    granularities.clear();
    for (const g of fields.timestamp_granularities) granularities.add(g);
  }
  return {
    task,
    audio,
    ...(fields.language ? { language: fields.language } : {}),
    ...(fields.prompt ? { prompt: fields.prompt } : {}),
    ...(fields.temperature !== undefined ? { temperature: fields.temperature } : {}),
    ...(granularities.size ? { timestampGranularities: [...granularities] } : {}),
  };
}
