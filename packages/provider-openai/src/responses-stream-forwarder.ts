import { checkUpstream, isEventObject, StreamForwarder, type EventJson, type SseEvent, type TextStreamPart } from '@gateway/provider-kit';
import type { ResponsesStreamMapper } from './map-responses-stream';
import { responseEventSchema, RESPONSES_FORMAT, type ResponseEvent } from './openai-responses-api';
import { cleanEvent, ITEM_ID_SHAPE } from './responses-forwarded-event';

/**
 * The usual events, a piece of text, reasoning or call arguments, as OpenAI writes them (`sequence_number` second
 * or last, `logprobs` and OpenAI's padding after the delta): read without parsing the whole event (its delta is the
 * one JSON string read), as the mapper would read it. Anything else is parsed and checked whole.
 */
const DELTA_HEAD = new RegExp(
  '^\\{"type":"(response\\.(?:output_text|refusal|reasoning_summary_text|reasoning_text|function_call_arguments)\\.delta)",' +
    `(?:"sequence_number":\\d+,)?"item_id":"(${ITEM_ID_SHAPE})","output_index":\\d+,(?:"(?:content|summary)_index":\\d+,)?"delta":`,
);
/** the delta's JSON string, from its opening quote (a raw control character, which JSON forbids, is no match) */
const JSON_STRING = /"(?:[^"\\\u0000-\u001f]|\\.)*"/y;
/** what may follow the delta: an empty logprobs list, the padding, the sequence number, the end */
const DELTA_TAIL = /(?:,"logprobs":\[\])?(?:,"obfuscation":"[^"\\]*")?(?:,"sequence_number":\d+)?\}$/y;

/**
 * A Responses stream forwarded to a Responses client (core stream-forwarding.ts, the skeleton in provider-kit's
 * stream-forwarder.ts). Each upstream read's events become one `forwarded-events` part: every event about an output
 * item exactly as OpenAI wrote it (item ids, sequence numbers, logprobs and padding included), none of which names
 * anything the client's adapter owns. Two kinds go as `native-event` parts instead, which the redacting port reads:
 *
 * - an event with an upstream string other than generated content, OpenAI's names and ids (responses-forwarded-event.ts);
 * - every event carrying a `response` object (created, in_progress, completed, incomplete), whose id, model and
 *   previous_response_id the client's adapter writes. Those are not rewritten here with `fields`: a response object
 *   echoes the whole request's settings and more upstream strings (status, tiers, errors, annotations in its output)
 *   that would each need vouching for; the adapter needs the final one parsed as the stored document anyway; and a
 *   stream has three of them, so nothing is to be gained (responses.native.ts in the wire package writes them).
 *
 * Every event still goes through the full path's schema and mapper, which read usage, finish and a failure on the
 * side. The mapper's content parts are gathered (consecutive pieces of one kind joined) and follow its finish part,
 * for what reads the canonical answer (the stored conversation a previous_response_id continues); after the finish,
 * so a stream cut short is charged for the forwarded text once.
 */
export class ResponsesStreamForwarder extends StreamForwarder {
  private readonly content: TextStreamPart[] = [];

  constructor(private readonly mapper: ResponsesStreamMapper) {
    super(RESPONSES_FORMAT);
  }

  protected forwardEvent(ev: SseEvent): void {
    if (ev.data.trim() === '[DONE]') {
      this.done = true;
      return;
    }
    const delta = this.deltaEvent(ev);
    if (delta) {
      this.note(this.mapper.push(delta));
      this.send(this.frame(ev, ev.data));
      return;
    }
    const data = this.read(ev.data);
    const type = data.type;
    if (type === 'response.completed' || type === 'response.incomplete') this.done = true;
    // the SSE event's name is an upstream string too: only the event's own type goes as text
    if ((ev.event === 'message' || ev.event === type) && cleanEvent(data))
      this.send(this.frame(ev, ev.data.includes('\n') ? JSON.stringify(data) : ev.data));
    else this.sendNative(ev.event !== 'message' ? ev.event : typeof type === 'string' ? type : 'message', data);
  }

  protected finish(): TextStreamPart[] {
    this.mapper.end();
    return [];
  }

  private frame(ev: SseEvent, data: string): string {
    return ev.event === 'message' ? `data: ${data}\n\n` : `event: ${ev.event}\ndata: ${data}\n\n`;
  }

  /** A delta event in the usual shape: what the mapper reads of it (its type, item id and delta). */
  private deltaEvent(ev: SseEvent): ResponseEvent | undefined {
    const raw = ev.data;
    const head = DELTA_HEAD.exec(raw);
    if (!head || (ev.event !== 'message' && ev.event !== head[1])) return undefined;
    JSON_STRING.lastIndex = head[0].length;
    const text = JSON_STRING.exec(raw);
    if (!text) return undefined;
    DELTA_TAIL.lastIndex = JSON_STRING.lastIndex;
    if (!DELTA_TAIL.test(raw)) return undefined;
    let delta: unknown;
    if (!text[0].includes('\\')) delta = text[0].slice(1, -1);
    else
      try {
        delta = JSON.parse(text[0]);
      } catch {
        return undefined; // an escape JSON does not know: parsed whole, and refused as the full path refuses it
      }
    return { type: head[1], item_id: head[2], delta: delta as string };
  }

  /** One event as the full path reads it (checked against the event schema; an error or a failed response thrown), its parts noted. */
  private read(text: string): EventJson {
    const raw = this.parse(text);
    this.note(this.mapper.push(checkUpstream(responseEventSchema, raw, 'a stream event')));
    return isEventObject(raw) ? raw : {};
  }

  /** The mapper's parts for one event: counted as shown, the content gathered, the finish followed by the content. */
  private note(parts: TextStreamPart[]): void {
    this.shown(parts);
    for (const p of parts) {
      if (p.type !== 'finish') this.gather(p);
      else {
        this.follow(p);
        for (const c of this.content.splice(0)) this.follow(c);
      }
    }
  }

  /** One content part, joined to the last when it continues it: read back whole, the answer is the same. */
  private gather(p: TextStreamPart): void {
    const last = this.content[this.content.length - 1];
    if (p.type === 'text-delta' && last?.type === 'text-delta') last.delta += p.delta;
    else if (p.type === 'reasoning-delta' && last?.type === 'reasoning-delta') {
      last.delta += p.delta;
      if (p.signature) last.signature = p.signature;
    } else if (p.type === 'tool-call-delta' && last?.type === 'tool-call-delta' && last.index === p.index)
      last.argumentsDelta += p.argumentsDelta;
    else this.content.push({ ...p });
  }
}
