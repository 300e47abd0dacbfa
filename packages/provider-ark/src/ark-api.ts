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

export interface ArkErrorObject {
  code?: string;
  message?: string;
  param?: string;
  type?: string;
}

/** queued, running, succeeded, failed, cancelled; `expired` appears in the docs' DELETE table, not in the SDK constants. */
export type ArkTaskStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled' | 'expired';

export interface ArkTask {
  id?: string;
  model?: string;
  status?: ArkTaskStatus | string;
  error?: ArkErrorObject | null;
  /** the Go SDK's list items name the error so */
  failure_reason?: ArkErrorObject | null;
  content?: { video_url?: string; last_frame_url?: string; file_url?: string };
  resolution?: string;
  ratio?: string;
  duration?: number;
  frames?: number;
  framespersecond?: number;
  created_at?: number;
  updated_at?: number;
}

export interface ArkTaskList {
  total?: number;
  items?: ArkTask[];
}

export interface ArkErrorBody {
  error?: ArkErrorObject;
  request_id?: string;
}
