import { s, type Infer } from '@gateway/provider-kit';

/** The Kling AI video task shapes the gateway sends and reads. Every field read may be missing. */
export const KLING_DEFAULT_BASE_URL = 'https://api-singapore.klingai.com';
/** Kling puts its request_id in the body; a proxy's header is taken when there is one. */
export const KLING_REQUEST_ID_HEADERS = ['x-request-id'];

export type KlingTaskKind = 'text2video' | 'image2video';

export interface KlingCreateBody {
  model_name: string;
  prompt?: string;
  /** Base64 without a `data:` prefix, or a URL */
  image?: string;
  image_tail?: string;
  /** std renders 720p, pro 1080p */
  mode: 'std' | 'pro';
  duration: '5' | '10';
  /** text2video only; image2video follows the image */
  aspect_ratio?: '16:9' | '9:16' | '1:1';
}

const klingVideo = s.object({ id: s.string(), url: s.string(), duration: s.string() });

/** `data` of a task answer (create and read alike). */
export const klingTaskSchema = s.object({
  task_id: s.string(),
  /** submitted, processing, succeed, failed */
  task_status: s.string(),
  task_status_msg: s.string(),
  created_at: s.number(),
  updated_at: s.number(),
  task_result: s.object({ videos: s.array(klingVideo) }),
});

/** Kling's envelope: `code` 0 is success; errors keep the envelope with a service code. */
export const klingEnvelopeSchema = s.object({
  code: s.number(),
  message: s.string(),
  request_id: s.string(),
  data: klingTaskSchema,
});

export type KlingTask = Infer<typeof klingTaskSchema>;

export interface KlingErrorBody {
  code?: number;
  message?: string;
  request_id?: string;
}
