import { s, type Infer } from '@gateway/provider-kit';

/** The Gemini API answers the gateway reads, as minimal schemas: every field may be missing, none mistyped. */
export const GOOGLE_DEFAULT_BASE_URL = 'https://generativelanguage.googleapis.com';
export const GOOGLE_REQUEST_ID_HEADERS = ['x-request-id', 'x-goog-request-id'];

const googlePart = s.object({
  text: s.string(),
  thought: s.boolean(),
  thoughtSignature: s.string(),
  inlineData: s.object({ mimeType: s.string(), data: s.string() }),
  fileData: s.object({ mimeType: s.string(), fileUri: s.string() }),
  /** args: free-form JSON, checked where it is read */
  functionCall: s.object({ id: s.string(), name: s.string(), args: s.unknown() }),
  functionResponse: s.object({ id: s.string(), name: s.string(), response: s.unknown() }),
  executableCode: s.unknown(),
  codeExecutionResult: s.unknown(),
});

const googleContent = s.object({ role: s.string(), parts: s.array(googlePart) });

const googleUsage = s.object({
  promptTokenCount: s.number(),
  candidatesTokenCount: s.number(),
  totalTokenCount: s.number(),
  cachedContentTokenCount: s.number(),
  thoughtsTokenCount: s.number(),
  toolUsePromptTokenCount: s.number(),
});

export const googleErrorObjectSchema = s.object({
  code: s.number(),
  message: s.string(),
  status: s.string(),
  details: s.array(s.object({ '@type': s.string(), reason: s.string(), retryDelay: s.string() })),
});

/** A generateContent answer, and each chunk of streamGenerateContent. */
export const googleResponseSchema = s.object({
  candidates: s.array(s.object({ content: googleContent, finishReason: s.string(), index: s.number() })),
  usageMetadata: googleUsage,
  promptFeedback: s.object({ blockReason: s.string() }),
  modelVersion: s.string(),
  responseId: s.string(),
  /** a stream chunk may carry an error instead */
  error: googleErrorObjectSchema,
});

/** `:countTokens`; proto3 JSON leaves out a zero */
export const googleTokenCountSchema = s.object({ totalTokens: s.unknown() });

export type GooglePart = Infer<typeof googlePart>;
export type GoogleContent = Infer<typeof googleContent>;
export type GoogleUsage = Infer<typeof googleUsage>;
export type GoogleErrorObject = Infer<typeof googleErrorObjectSchema>;
export type GoogleResponse = Infer<typeof googleResponseSchema>;

export interface GoogleErrorBody {
  error?: GoogleErrorObject;
}
