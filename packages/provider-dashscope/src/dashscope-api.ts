import { s, type Infer } from '@gateway/provider-kit';

/** The DashScope video-synthesis shapes the gateway sends and reads. Every field read may be missing. */
export const DASHSCOPE_DEFAULT_BASE_URL = 'https://dashscope-intl.aliyuncs.com/api/v1';
/** DashScope puts its request_id in the body (read by the error mapper); a header is taken when there is one. */
export const DASHSCOPE_REQUEST_ID_HEADERS = ['x-request-id'];
export const DASHSCOPE_SYNTHESIS_PATH = '/services/aigc/video-generation/video-synthesis';

export interface DashScopeCreateBody {
  model: string;
  input: { prompt?: string; img_url?: string };
  /** text-to-video takes `size` ("1280*720"), image-to-video `resolution` ("720P") */
  parameters: { size?: string; resolution?: string; duration: number; watermark: boolean };
}

/** PENDING, RUNNING, SUCCEEDED, FAILED, CANCELED, UNKNOWN (an id it does not know, or one past its 24 h) */
const output = s.object({
  task_id: s.string(),
  task_status: s.string(),
  video_url: s.string(),
  code: s.string(),
  message: s.string(),
});

export const dashscopeTaskSchema = s.object({
  request_id: s.string(),
  output,
  /** video_ratio: `1280*720` on the models that state the size there */
  usage: s.object({ video_duration: s.number(), video_ratio: s.string(), video_count: s.number() }),
});

export type DashScopeTask = Infer<typeof dashscopeTaskSchema>;

export interface DashScopeErrorBody {
  code?: string;
  message?: string;
  request_id?: string;
}
