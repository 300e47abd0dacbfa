/** The Gemini API shapes the gateway reads. Every field may be missing. */
export const GOOGLE_DEFAULT_BASE_URL = 'https://generativelanguage.googleapis.com';
export const GOOGLE_REQUEST_ID_HEADERS = ['x-request-id', 'x-goog-request-id'];

export interface GooglePart {
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
  inlineData?: { mimeType?: string; data?: string };
  fileData?: { mimeType?: string; fileUri?: string };
  functionCall?: { id?: string; name?: string; args?: Record<string, unknown> };
  functionResponse?: { id?: string; name?: string; response?: Record<string, unknown> };
  executableCode?: unknown;
  codeExecutionResult?: unknown;
}

export interface GoogleContent {
  role?: string;
  parts?: GooglePart[];
}

export interface GoogleUsage {
  promptTokenCount?: number;
  candidatesTokenCount?: number;
  totalTokenCount?: number;
  cachedContentTokenCount?: number;
  thoughtsTokenCount?: number;
  toolUsePromptTokenCount?: number;
}

export interface GoogleErrorObject {
  code?: number;
  message?: string;
  status?: string;
  details?: Array<{ '@type'?: string; reason?: string; retryDelay?: string }>;
}

export interface GoogleResponse {
  candidates?: Array<{ content?: GoogleContent; finishReason?: string; index?: number }>;
  usageMetadata?: GoogleUsage;
  promptFeedback?: { blockReason?: string };
  modelVersion?: string;
  responseId?: string;
  /** a stream chunk may carry an error instead */
  error?: GoogleErrorObject;
}

export interface GoogleErrorBody {
  error?: GoogleErrorObject;
}
