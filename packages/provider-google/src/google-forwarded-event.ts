/**
 * Which streamGenerateContent events may reach a Gemini client as text (google-stream-forwarder.ts): those whose
 * only upstream strings are generated content (text, thoughts and their signatures, a function call's id, name and
 * arguments, all of which the full path relays too), Google's own names (a finish reason, a token count's modality)
 * and the two fields the client's adapter writes over (modelVersion, responseId). Anything else (grounding or
 * citation metadata, safety ratings, a finish message, prompt feedback, a part kind the full path drops, an unknown
 * field or finish reason) makes the event a native event, which the redacting port reads.
 */
import { isEventObject, keysIn, type EventJson } from '@gateway/provider-kit';

/** The fields of a streamed GenerateContentResponse the client's adapter writes (generate-content.stream.codec.ts), in its order. */
export const OWNED_FIELDS = ['modelVersion', 'responseId'] as const;

const RESPONSE_KEYS = new Set<string>(['candidates', 'usageMetadata', ...OWNED_FIELDS]);
const CANDIDATE_KEYS = new Set(['content', 'finishReason', 'index', 'safetyRatings']);
const PART_KEYS = new Set(['text', 'thought', 'thoughtSignature', 'functionCall']);
const CALL_KEYS = new Set(['id', 'name', 'args']);
const FINISH_REASONS = new Set([
  'FINISH_REASON_UNSPECIFIED',
  'STOP',
  'MAX_TOKENS',
  'SAFETY',
  'RECITATION',
  'LANGUAGE',
  'OTHER',
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'MALFORMED_FUNCTION_CALL',
  'IMAGE_SAFETY',
  'IMAGE_PROHIBITED_CONTENT',
  'IMAGE_RECITATION',
  'IMAGE_OTHER',
  'NO_IMAGE',
  'UNEXPECTED_TOOL_CALL',
  'TOO_MANY_TOOL_CALLS',
]);
const MODALITIES = new Set(['MODALITY_UNSPECIFIED', 'TEXT', 'IMAGE', 'VIDEO', 'AUDIO', 'DOCUMENT']);

const optional = (v: unknown, type: string) => v === undefined || typeof v === type;

const MODALITY_COUNT_KEYS = new Set(['modality', 'tokenCount']);
const CONTENT_KEYS = new Set(['parts', 'role']);

/** A per-modality count: `{ modality: 'TEXT', tokenCount: 5 }`. */
const modalityCount = (v: unknown) =>
  isEventObject(v) && keysIn(v, MODALITY_COUNT_KEYS) && MODALITIES.has(v.modality as string) && optional(v.tokenCount, 'number');

/** usageMetadata: counts, and lists of counts per modality (`promptTokensDetails` and the like), as the schema reads them. */
export function cleanUsage(u: unknown): boolean {
  if (u === undefined) return true;
  if (!isEventObject(u)) return false;
  return Object.entries(u).every(
    ([k, v]) => typeof v === 'number' || (k.endsWith('Details') && Array.isArray(v) && v.every(modalityCount)),
  );
}

function cleanPart(p: unknown): boolean {
  if (!isEventObject(p) || !keysIn(p, PART_KEYS)) return false;
  if (!optional(p.text, 'string') || !optional(p.thought, 'boolean') || !optional(p.thoughtSignature, 'string')) return false;
  const call = p.functionCall;
  if (call === undefined) return true;
  return isEventObject(call) && keysIn(call, CALL_KEYS) && optional(call.id, 'string') && optional(call.name, 'string');
}

function cleanCandidate(c: unknown): boolean {
  if (!isEventObject(c) || !keysIn(c, CANDIDATE_KEYS) || !optional(c.index, 'number')) return false;
  if (c.finishReason !== undefined && !FINISH_REASONS.has(c.finishReason as string)) return false;
  // ratings name categories and probabilities, but may carry more: an empty list only (the full path writes one)
  if (c.safetyRatings !== undefined && !(Array.isArray(c.safetyRatings) && c.safetyRatings.length === 0)) return false;
  const content = c.content;
  if (content === undefined) return true;
  if (!isEventObject(content) || !keysIn(content, CONTENT_KEYS) || (content.role ?? 'model') !== 'model') return false;
  return content.parts === undefined || (Array.isArray(content.parts) && content.parts.every(cleanPart));
}

/** Whether an event (parsed) may go as text: no upstream string in it but generated content and Google's own names. */
export function cleanEvent(data: EventJson): boolean {
  if (!keysIn(data, RESPONSE_KEYS) || !cleanUsage(data.usageMetadata)) return false;
  return data.candidates === undefined || (Array.isArray(data.candidates) && data.candidates.every(cleanCandidate));
}
