import { newId } from '@gateway/provider-kit';
import type { GooglePart } from './google-api';

/** Gemini may leave function calls without ids; the canonical model needs one to pair the result. */
export type CallIdFactory = () => string;
export const randomCallId: CallIdFactory = () => `call_${newId('', 12)}`;

export type PartItem =
  | { kind: 'reasoning'; text: string; signature?: string }
  | { kind: 'text'; text: string }
  | { kind: 'tool-call'; id: string; name: string; arguments: string }
  | { kind: 'unsupported'; what: string };

/**
 * One Gemini part → canonical items, in order. A signature on a non-thought part becomes an empty
 * signed reasoning item placed just before it, which convertToGoogleContents puts back on that part.
 */
export function readGooglePart(p: GooglePart, newCallId: CallIdFactory): PartItem[] {
  if (p.thought) return [{ kind: 'reasoning', text: p.text ?? '', ...(p.thoughtSignature ? { signature: p.thoughtSignature } : {}) }];
  const out: PartItem[] = p.thoughtSignature ? [{ kind: 'reasoning', text: '', signature: p.thoughtSignature }] : [];
  if (typeof p.text === 'string') out.push({ kind: 'text', text: p.text });
  else if (p.functionCall) {
    out.push({
      kind: 'tool-call',
      id: p.functionCall.id ?? newCallId(),
      name: p.functionCall.name ?? '',
      arguments: JSON.stringify(p.functionCall.args ?? {}),
    });
  } else {
    const what = Object.keys(p).find((k) => k !== 'thoughtSignature') ?? 'unknown';
    out.push({ kind: 'unsupported', what });
  }
  return out;
}
