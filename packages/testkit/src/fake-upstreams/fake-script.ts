/** What a fake upstream answers, in the gateway's terms; each dialect renders it in its own wire shape. */
export interface FakeReply {
  text?: string;
  reasoning?: { text: string; signature?: string };
  toolCalls?: Array<{ id?: string; name: string; arguments: Record<string, unknown> }>;
  /** defaults to tool-calls when there are tool calls, else stop */
  finish?: 'stop' | 'length' | 'tool-calls' | 'content-filter';
  /** `input` counts every input token, `cached` (read from a cache) and `cacheWrite` (written to one) included */
  usage?: { input: number; output: number; cached?: number; cacheWrite?: number; reasoning?: number };
}

/** One request the fake received, for asserting what the gateway translated. */
export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  /** parsed JSON, or undefined when the body was not JSON */
  body: any;
  rawBody: string;
}

/** How the fake behaves for one request. Everything is optional: an empty behaviour is a normal answer. */
export interface FakeBehaviour {
  reply?: FakeReply | ((req: RecordedRequest) => FakeReply);
  /** ≥ 400: answer with the dialect's error body and this status */
  status?: number;
  errorMessage?: string;
  /** extra response headers, e.g. `{ 'retry-after': '7' }` */
  headers?: Record<string, string>;
  /** wait this long before sending headers */
  latencyMs?: number;
  /** wait this long between stream frames (and before the first) */
  chunkDelayMs?: number;
  /** accept the request and never answer */
  hang?: boolean;
  /** stream up to the frame carrying the first piece of the answer's text, then hold the connection open */
  stallAfterFirstText?: boolean;
  /** answer 200 with a wrongly typed body of the dialect (MALFORMED_ANSWERS: its first answer, or its stream chunk) */
  malformed?: boolean;
  /** destroy the socket before any header, or after this many stream frames */
  reset?: 'before-headers' | number;
  /** end the stream cleanly after this many frames, without the dialect's end marker */
  truncateAfter?: number;
  /** after this many frames, send the dialect's in-stream error event and end */
  streamErrorAfter?: number;
  /** answer exactly this */
  raw?: { status: number; headers?: Record<string, string>; body: string };
}

export const DEFAULT_USAGE: NonNullable<FakeReply['usage']> = { input: 11, output: 7 };

/** Splits text into a few chunks that concatenate back to it. */
export function chunksOf(text: string, parts = 3): string[] {
  if (text.length <= parts) return text ? [text] : [];
  const size = Math.ceil(text.length / parts);
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}
