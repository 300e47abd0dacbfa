import { s, type Infer } from '@gateway/provider-kit';

/** The Ark content-generation task shapes the gateway sends and reads. Every field read may be missing. */
export const ARK_DEFAULT_BASE_URL = 'https://ark.cn-beijing.volces.com/api/v3';
export const ARK_REQUEST_ID_HEADERS = ['x-request-id', 'x-tt-logid'];
export const ARK_TASKS_PATH = '/contents/generations/tasks';

export type ArkImageRole = 'first_frame' | 'last_frame' | 'reference_image';

export type ArkContentItem = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string }; role?: ArkImageRole };

export interface ArkCreateTaskBody {
  model: string;
  content: ArkContentItem[];
  ratio?: string;
  resolution?: string;
  duration?: number;
  generate_audio?: boolean;
  watermark?: boolean;
}

const arkErrorObject = s.object({ code: s.string(), message: s.string(), param: s.string(), type: s.string() });

/** queued, running, succeeded, failed, cancelled; `expired` appears in the docs' DELETE table, not in the SDK constants. */
export type ArkTaskStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled' | 'expired';

/** A content-generation task as the gateway reads it (minimal schema: every field may be missing, none mistyped). */
export const arkTaskSchema = s.object({
  id: s.string(),
  model: s.string(),
  status: s.string(),
  error: arkErrorObject,
  /** the Go SDK's list items name the error so */
  failure_reason: arkErrorObject,
  content: s.object({ video_url: s.string(), last_frame_url: s.string(), file_url: s.string() }),
  resolution: s.string(),
  ratio: s.string(),
  duration: s.number(),
  frames: s.number(),
  framespersecond: s.number(),
  created_at: s.number(),
  updated_at: s.number(),
});

export const arkTaskListSchema = s.object({ total: s.number(), items: s.array(arkTaskSchema) });

/** The answer to a create: only the id is read. */
export const arkCreatedSchema = s.object({ id: s.string() });

export type ArkErrorObject = Infer<typeof arkErrorObject>;
export type ArkTask = Infer<typeof arkTaskSchema>;
export type ArkTaskList = Infer<typeof arkTaskListSchema>;

export interface ArkErrorBody {
  error?: ArkErrorObject;
  request_id?: string;
}
