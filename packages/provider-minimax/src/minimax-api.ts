import { s, type Infer } from '@gateway/provider-kit';

/** The MiniMax video shapes the gateway sends and reads. Every field read may be missing. */
export const MINIMAX_DEFAULT_BASE_URL = 'https://api.minimax.io';
export const MINIMAX_REQUEST_ID_HEADERS = ['trace-id', 'x-request-id'];

export interface MiniMaxCreateBody {
  model: string;
  prompt?: string;
  /** a data URL or a public URL */
  first_frame_image?: string;
  last_frame_image?: string;
  duration: number;
  resolution: '768P' | '1080P';
}

/** On every answer, HTTP 200 included: `status_code` 0 is success. */
export const baseRespSchema = s.object({ status_code: s.number(), status_msg: s.string() });

export const minimaxCreatedSchema = s.object({ task_id: s.string(), base_resp: baseRespSchema });

/** status: Preparing, Queueing, Processing, Success, Fail */
export const minimaxQuerySchema = s.object({
  task_id: s.string(),
  status: s.string(),
  file_id: s.string(),
  video_width: s.number(),
  video_height: s.number(),
  base_resp: baseRespSchema,
});

/** file_id is int64 upstream: read as number or string */
export const minimaxFileSchema = s.object({
  file: s.object({ file_id: s.unknown(), bytes: s.number(), filename: s.string(), download_url: s.string() }),
  base_resp: baseRespSchema,
});

export type MiniMaxBaseResp = Infer<typeof baseRespSchema>;
export type MiniMaxQuery = Infer<typeof minimaxQuerySchema>;
