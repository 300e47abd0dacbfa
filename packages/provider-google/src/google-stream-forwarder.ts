import { checkUpstream, StreamForwarder, type EventJson, type Forwarding, type SseEvent, type TextStreamPart } from '@gateway/provider-kit';
import { googleResponseSchema, type GoogleResponse } from './google-api';
import { GOOGLE_FORMAT } from './convert-to-google-request';
import { cleanEvent, cleanUsage, OWNED_FIELDS } from './google-forwarded-event';
import type { GoogleStreamMapper } from './map-google-stream';

/**
 * The usual event, a piece of text, as Gemini writes it (with or without a space after each colon): read without
 * parsing the whole event (its text and its usage are the JSON parsed), as the mapper would read it; about 2 µs less
 * per event than parsing and checking it whole (bench/stream-ratio.ts --gemini: 68k -> 92k chunks/s). The text's
 * string is taken to end at the last `}]` before the last `"role"`: only when that slice parses as one JSON string
 * and the rest matches TEXT_TAIL whole is the event read so; anything else is parsed and checked whole.
 */
const TEXT_HEAD = /^\{"candidates": ?\[\{"content": ?\{"parts": ?\[\{"text": ?/;
const TEXT_TAIL =
  /^(\}\], ?"role": ?"model"\}(?:, ?"index": ?0)?\}\](?:, ?"usageMetadata": ?(\{.*\}))?), ?"modelVersion": ?"[^"\\]*", ?"responseId": ?"[^"\\]*"\}$/;
/** The upstream's own modelVersion and responseId, last in its events as in the client adapter's */
const OWNED_TAIL = /, ?"modelVersion": ?"[^"\\]*", ?"responseId": ?"[^"\\]*"\}$/;

/**
 * A streamGenerateContent stream forwarded to a Gemini client (core stream-forwarding.ts, the skeleton in
 * provider-kit's stream-forwarder.ts). Each upstream read's events become one `forwarded-events` part: every event
 * as Google wrote it, with the two fields the client's adapter writes (`fields`: modelVersion, the model name the
 * client asked for, and responseId, the gateway's id) in place of the upstream's. An event with an upstream string
 * other than generated content goes as a `native-event` part instead (google-forwarded-event.ts). Every event
 * still goes through the full path's schema and mapper, which read the usage, the finish reason, the generated text
 * and a mid-stream error on the side (its finish part follows the last event).
 *
 * Where the client sees Gemini's own events rather than the full path's rebuilt ones, by design (a Gemini client
 * is written against them): usageMetadata comes on every event that carries it, as Google counted it (the last
 * one's counts are the full path's: prompt, candidates, thoughts, cached, total); the finish reason is Google's own
 * (the full path folds RECITATION and the like into SAFETY or OTHER); a thought signature stays on the part it came
 * with; a function call comes in the event that carried it, with Google's id or none (the full path gathers calls
 * into the last event and makes up ids); `safetyRatings: []` and `index: 0`, which the full path always writes, are
 * there only when Google wrote them.
 */
export class GoogleStreamForwarder extends StreamForwarder {
  private readonly owned: Set<string>;
  /** `,"modelVersion":…,"responseId":…}`: the end of every event the client gets */
  private readonly tail: string;
  /** the client's adapter writes exactly the upstream's last two fields: an event's text may be kept up to them */
  private readonly fast: boolean;
  private lastUsage: { text?: string; value?: GoogleResponse['usageMetadata'] } = {};

  constructor(
    private readonly forward: Forwarding,
    private readonly mapper: GoogleStreamMapper,
  ) {
    super(GOOGLE_FORMAT);
    const keys = Object.keys(forward.fields);
    this.owned = new Set(keys);
    this.tail = keys.length ? `,${JSON.stringify(forward.fields).slice(1)}` : '}';
    this.fast = keys.join() === OWNED_FIELDS.join();
  }

  protected forwardEvent(ev: SseEvent): void {
    if (ev.data.trim() === '[DONE]') {
      this.done = true;
      return;
    }
    const text = this.fast ? this.textEvent(ev.data) : undefined;
    if (text) {
      this.shown(this.mapper.push(text.chunk));
      this.send(`data: ${text.out}\n\n`);
      return;
    }
    const data = this.read(ev.data);
    if (cleanEvent(data)) this.send(`data: ${this.rewrite(data, ev.data)}\n\n`);
    else this.sendNative('message', this.object(data));
  }

  protected finish(): TextStreamPart[] {
    return this.mapper.end();
  }

  /** A text-only event in the usual shape: the chunk the mapper reads, and the event as the client gets it. */
  private textEvent(raw: string): { chunk: GoogleResponse; out: string } | undefined {
    const head = TEXT_HEAD.exec(raw);
    if (!head) return undefined;
    const at = raw.lastIndexOf('}]', raw.lastIndexOf('"role"'));
    const tail = at > head[0].length ? TEXT_TAIL.exec(raw.slice(at)) : null;
    if (!tail) return undefined;
    let text: unknown;
    try {
      text = JSON.parse(raw.slice(head[0].length, at));
    } catch {
      return undefined; // not one string: the event has another shape, parsed whole
    }
    const usage = this.usage(tail[2]);
    if (typeof text !== 'string' || usage === false) return undefined;
    const candidate = { content: { parts: [{ text }], role: 'model' }, index: 0 };
    const chunk = { candidates: [candidate], ...(usage ? { usageMetadata: usage as GoogleResponse['usageMetadata'] } : {}) };
    return { chunk, out: `${raw.slice(0, at)}${tail[1]}${this.tail}` };
  }

  /**
   * An event's usageMetadata as the mapper reads it (false when it is not clean). Gemini repeats the same counts on
   * every event but the last, so the last one read is kept (the mapper keeps it by reference and never changes it).
   */
  private usage(text: string | undefined): GoogleResponse['usageMetadata'] | false {
    if (text === undefined) return undefined;
    if (text === this.lastUsage.text) return this.lastUsage.value;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return false;
    }
    if (!cleanUsage(value)) return false;
    this.lastUsage = { text, value: value as GoogleResponse['usageMetadata'] };
    return this.lastUsage.value;
  }

  /** One event's data as sent, read as the full path reads it (checked against the schema; an error event, a blocked prompt thrown). */
  private read(text: string): EventJson {
    const raw = this.parse(text);
    this.shown(this.mapper.push(checkUpstream(googleResponseSchema, raw, 'a stream chunk')));
    return raw as EventJson;
  }

  /** A clean event as the client gets it: as it came up to the upstream's modelVersion and responseId when they end it, else rebuilt. */
  private rewrite(data: EventJson, raw: string): string {
    const keys = Object.keys(data);
    const ownedLast = this.fast && keys.at(-2) === OWNED_FIELDS[0] && keys.at(-1) === OWNED_FIELDS[1] && !raw.includes('\n');
    const end = ownedLast ? OWNED_TAIL.exec(raw) : null;
    // one modelVersion key only: a repeated one would leave the upstream's first value in the text
    if (end && raw.indexOf('"modelVersion"') === raw.lastIndexOf('"modelVersion"')) return `${raw.slice(0, end.index)}${this.tail}`;
    return JSON.stringify(this.object(data));
  }

  /** The event with the client adapter's fields in place of the upstream's, last as that adapter writes them. */
  private object(data: EventJson): EventJson {
    const out: EventJson = {};
    for (const [k, v] of Object.entries(data)) if (!this.owned.has(k)) out[k] = v;
    return { ...out, ...this.forward.fields };
  }
}
