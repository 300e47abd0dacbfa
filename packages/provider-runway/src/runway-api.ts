import { s, type Infer } from '@gateway/provider-kit';

/** The Runway task shapes the gateway sends and reads. Every field read may be missing. */
export const RUNWAY_DEFAULT_BASE_URL = 'https://api.dev.runwayml.com';
/** The API version this adapter speaks; Runway refuses calls without it. */
export const RUNWAY_VERSION = '2024-11-06';
export const RUNWAY_REQUEST_ID_HEADERS = ['x-request-id'];

export type RunwayPromptImage = string | Array<{ uri: string; position: 'first' | 'last' }>;

export interface RunwayCreateBody {
  model: string;
  promptText?: string;
  promptImage?: RunwayPromptImage;
  /** pixels as `W:H`, e.g. 1280:720 */
  ratio: string;
  duration: number;
}

export const runwayCreatedSchema = s.object({ id: s.string() });

/** status: PENDING, THROTTLED, RUNNING, SUCCEEDED, FAILED, CANCELLED */
export const runwayTaskSchema = s.object({
  id: s.string(),
  status: s.string(),
  createdAt: s.string(),
  progress: s.number(),
  output: s.array(s.string()),
  failure: s.string(),
  failureCode: s.string(),
});

export type RunwayTask = Infer<typeof runwayTaskSchema>;

export interface RunwayErrorBody {
  error?: string;
}
