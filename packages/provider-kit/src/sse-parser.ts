import { malformedUpstream } from './upstream-errors';
import { checkUpstream, type UpstreamSchema } from './upstream-schema';

/** One server-sent event. `event` is `message` when the stream gave no `event:` line, as in the SSE spec. */
export interface SseEvent {
  event: string;
  data: string;
  id?: string;
}

/**
 * Parses an SSE byte stream into events, following the WHATWG rules: lines end in \n, \r\n or \r
 * (also across chunk boundaries), `:` lines are comments, several `data:` lines join with \n, one
 * space after the colon is dropped, a blank line dispatches. An event still open at EOF is dropped,
 * as the spec says: callers notice the missing end marker instead.
 */
export async function* parseSse(chunks: AsyncIterable<Uint8Array | string>): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder('utf-8');
  let buffer = '';
  let skipLeadingLf = false;
  let event = '';
  let data: string[] = [];
  let hasData = false;
  let id: string | undefined;

  const line = (text: string): SseEvent | undefined => {
    if (text === '') {
      const out = hasData ? { event: event || 'message', data: data.join('\n'), ...(id !== undefined ? { id } : {}) } : undefined;
      event = '';
      data = [];
      hasData = false;
      return out;
    }
    if (text.startsWith(':')) return undefined;
    const colon = text.indexOf(':');
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') {
      data.push(value);
      hasData = true;
    } else if (field === 'event') event = value;
    else if (field === 'id' && !value.includes('\0')) id = value;
    return undefined;
  };

  for await (const chunk of chunks) {
    buffer += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    if (skipLeadingLf && buffer.startsWith('\n')) buffer = buffer.slice(1);
    skipLeadingLf = false;
    let start = 0;
    if (!buffer.includes('\r')) {
      // the usual stream: \n only, found by indexOf instead of a loop over every character
      for (let i = buffer.indexOf('\n'); i >= 0; i = buffer.indexOf('\n', start)) {
        const ev = line(buffer.slice(start, i));
        if (ev) yield ev;
        start = i + 1;
      }
    } else {
      for (let i = 0; i < buffer.length; i++) {
        const c = buffer[i];
        if (c !== '\n' && c !== '\r') continue;
        const ev = line(buffer.slice(start, i));
        if (ev) yield ev;
        if (c === '\r') {
          if (i + 1 === buffer.length) skipLeadingLf = true;
          else if (buffer[i + 1] === '\n') i++;
        }
        start = i + 1;
      }
    }
    buffer = buffer.slice(start);
  }
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
