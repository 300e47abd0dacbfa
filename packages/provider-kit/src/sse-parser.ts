import { malformedUpstream } from './upstream-errors';
import { checkUpstream, type UpstreamSchema } from './upstream-schema';

const LINE_END = /\r\n?/g;

/** One server-sent event. `event` is `message` when the stream gave no `event:` line, as in the SSE spec. */
export interface SseEvent {
  event: string;
  data: string;
  id?: string;
}

/**
 * Splits an SSE byte stream into events, following the WHATWG rules: lines end in \n, \r\n or \r
 * (also across chunk boundaries), `:` lines are comments, several `data:` lines join with \n, one
 * space after the colon is dropped, a blank line dispatches. Synchronous, a chunk at a time: a reader that
 * handles a chunk's events together (stream forwarding) takes them as one array.
 */
export class SseSplitter {
  private readonly decoder = new TextDecoder('utf-8');
  private buffer = '';
  private skipLeadingLf = false;
  private event = '';
  private data: string[] = [];
  private hasData = false;
  private id: string | undefined;

  /** The events the chunk completes, in order. */
  push(chunk: Uint8Array | string): SseEvent[] {
    const out: SseEvent[] = [];
    let buffer = this.buffer + (typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true }));
    if (this.skipLeadingLf && buffer.startsWith('\n')) buffer = buffer.slice(1);
    this.skipLeadingLf = false;
    if (buffer.includes('\r')) {
      // \r\n and a lone \r end lines too: made \n, so one indexOf loop reads every stream (a loop over each character
      // cost CRLF streams, Google's among them, twice the CPU); a \r last may be the first half of a \r\n
      this.skipLeadingLf = buffer.endsWith('\r');
      buffer = buffer.replace(LINE_END, '\n');
    }
    let start = 0;
    for (let i = buffer.indexOf('\n'); i >= 0; i = buffer.indexOf('\n', start)) {
      this.line(buffer.slice(start, i), out);
      start = i + 1;
    }
    this.buffer = buffer.slice(start);
    return out;
  }

  private line(text: string, out: SseEvent[]): void {
    if (text === '') {
      if (this.hasData)
        out.push({ event: this.event || 'message', data: this.data.join('\n'), ...(this.id !== undefined ? { id: this.id } : {}) });
      this.event = '';
      this.data = [];
      this.hasData = false;
      return;
    }
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') {
      this.data.push(value);
      this.hasData = true;
    } else if (field === 'event') this.event = value;
    else if (field === 'id' && !value.includes('\0')) this.id = value;
  }
}

/** An SSE byte stream as events (SseSplitter). An event still open at EOF is dropped, as the spec says: callers notice the missing end marker instead. */
export async function* parseSse(chunks: AsyncIterable<Uint8Array | string>): AsyncGenerator<SseEvent> {
  const splitter = new SseSplitter();
  for await (const chunk of chunks) yield* splitter.push(chunk);
}

/** JSON of an event's data; `undefined` for the `[DONE]` sentinel. Throws SyntaxError on bad JSON. */
export function sseJson<T = unknown>(ev: SseEvent): T | undefined {
  if (ev.data.trim() === '[DONE]') return undefined;
  return JSON.parse(ev.data) as T;
}

/**
 * The JSON event-stream reading: each event's data parsed as JSON and checked against the upstream's schema (`what`
 * names an event in errors); `[DONE]` ends the stream. `raw` is the parsed data as sent (a same-dialect passthrough
 * relays it).
 */
export async function* jsonEvents<T>(
  events: AsyncIterable<SseEvent>,
  schema: UpstreamSchema<T>,
  what: string,
): AsyncGenerator<{ event: string; data: T; raw: unknown }> {
  for await (const ev of events) {
    if (ev.data.trim() === '[DONE]') return;
    let raw: unknown;
    try {
      raw = JSON.parse(ev.data);
    } catch {
      throw malformedUpstream('a stream event that is not valid JSON');
    }
    yield { event: ev.event, data: checkUpstream(schema, raw, what), raw };
  }
}
