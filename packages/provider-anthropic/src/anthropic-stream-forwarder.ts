import { checkUpstream, malformedUpstream, SseSplitter, type CallContext, type TextStreamPart } from '@gateway/provider-kit';
import { anthropicStreamEventSchema } from './anthropic-api';
import { ANTHROPIC_FORMAT } from './convert-to-anthropic-request';
import type { AnthropicStreamMapper } from './map-anthropic-stream';

type Json = Record<string, unknown>;
type Forwarding = NonNullable<CallContext['forward']>;

const STOP_REASONS = new Set(['end_turn', 'max_tokens', 'stop_sequence', 'tool_use', 'pause_turn', 'refusal']);
const SERVICE_TIERS = new Set(['standard', 'priority', 'batch']);
/** message_start's message: the client's adapter writes its id and model; the rest is empty or counts */
const MESSAGE_KEYS = new Set(['id', 'type', 'role', 'model', 'content', 'stop_reason', 'stop_sequence', 'usage']);
/** the blocks and deltas whose only upstream strings are generated content (a tool call's id and name the full path relays too) */
const BLOCKS: Record<string, Set<string>> = {
  text: new Set(['type', 'text']),
  thinking: new Set(['type', 'thinking', 'signature']),
  tool_use: new Set(['type', 'id', 'name', 'input']),
};
const DELTAS: Record<string, Set<string>> = {
  text_delta: new Set(['type', 'text']),
  thinking_delta: new Set(['type', 'thinking']),
  signature_delta: new Set(['type', 'signature']),
  input_json_delta: new Set(['type', 'partial_json']),
};

/**
 * The usual event, a piece of text, as Anthropic writes it: read without parsing the whole event (its text is the
 * one JSON string parsed), as the mapper would read it. Anything else is parsed and checked.
 */
const TEXT_DELTA = /^\{"type":"content_block_delta","index":(\d+),"delta":\{"type":"text_delta","text":("(?:[^"\\]|\\.)*")\}\}$/;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const keysIn = (o: Json, allowed: Set<string>) => Object.keys(o).every((k) => allowed.has(k));
const typed = (o: unknown, kinds: Record<string, Set<string>>) =>
  isObject(o) && typeof o.type === 'string' && Object.hasOwn(kinds, o.type) && keysIn(o, kinds[o.type]!);

function cleanUsage(u: unknown): boolean {
  if (u === undefined) return true;
  if (!isObject(u)) return false;
  return Object.entries(u).every(([k, v]) =>
    k === 'service_tier'
      ? v === null || SERVICE_TIERS.has(v as string)
      : v === null || typeof v === 'number' || (isObject(v) && Object.values(v).every((x) => x === null || typeof x === 'number')),
  );
}

function cleanMessage(m: unknown): boolean {
  if (!isObject(m) || !keysIn(m, MESSAGE_KEYS) || m.type !== 'message' || m.role !== 'assistant') return false;
  const empty = Array.isArray(m.content) && m.content.length === 0;
  return empty && m.stop_reason == null && m.stop_sequence == null && cleanUsage(m.usage);
}

/** Whether an event's only upstream strings are generated content, its stop reason and the client's own stop sequence. */
function clean(name: string, data: Json): boolean {
  const index = typeof data.index === 'number';
  switch (name) {
    case 'message_start':
      return keysIn(data, new Set(['type', 'message'])) && cleanMessage(data.message);
    case 'content_block_start':
      return index && keysIn(data, new Set(['type', 'index', 'content_block'])) && typed(data.content_block, BLOCKS);
    case 'content_block_delta':
      return index && keysIn(data, new Set(['type', 'index', 'delta'])) && typed(data.delta, DELTAS);
    case 'content_block_stop':
      return index && keysIn(data, new Set(['type', 'index']));
    case 'message_delta': {
      const d = data.delta;
      if (!keysIn(data, new Set(['type', 'delta', 'usage'])) || !isObject(d) || !keysIn(d, new Set(['stop_reason', 'stop_sequence'])))
        return false;
      return (d.stop_reason == null || STOP_REASONS.has(d.stop_reason as string)) && cleanUsage(data.usage);
    }
    case 'message_stop':
    case 'ping':
      return keysIn(data, new Set(['type']));
    default:
      return false;
  }
}

/**
 * A Messages stream forwarded to a Messages client (core stream-forwarding.ts). Each upstream read's events become
 * one `forwarded-events` part: every event as the upstream wrote it, but message_start, whose nested message id and
 * model the client's adapter writes (`fields`). An event with an upstream string other than generated content (a
 * server tool's block, a citation, an unknown event or stop reason) goes as a `native-event` part instead, which the
 * redacting port reads. Every event still goes through the full path's schema and mapper, which read the usage, the
 * stop reason and the generated text on the side (its `input-usage` and `finish` parts follow the events); nothing
 * is sent before the mapper has a part to show, so failover stops where it stops on the full path.
 */
export class AnthropicStreamForwarder {
  private readonly splitter = new SseSplitter();
  private done = false;
  private started = false;
  private failure: unknown;
  /** held until the stream has a first part, then sent with it */
  private pending: TextStreamPart[] = [];

  constructor(
    private readonly forward: Forwarding,
    private readonly mapper: AnthropicStreamMapper,
  ) {}

  /** The parts one upstream chunk completes (none while the stream has nothing to show yet). */
  push(chunk: Uint8Array | string): TextStreamPart[] {
    const parts = this.pending;
    this.pending = [];
    const side: TextStreamPart[] = [];
    const out = { text: '', generated: '' };
    for (const ev of this.splitter.push(chunk)) {
      if (this.done || this.failure) continue;
      if (ev.data.trim() === '[DONE]') {
        this.done = true;
        continue;
      }
      const text = ev.event === 'content_block_delta' && TEXT_DELTA.exec(ev.data);
      if (text) {
        const delta = { type: 'text_delta', text: JSON.parse(text[2]!) as string };
        this.note(this.mapper.push({ type: 'content_block_delta', index: Number(text[1]), delta }), side, out);
        out.text += `event: content_block_delta\ndata: ${ev.data}\n\n`;
        continue;
      }
      let data: Json;
      try {
        data = this.read(ev.event, ev.data, side, out);
      } catch (e) {
        // the events before a failure go first, as they would one by one on the full path
        if (!this.started) throw e;
        this.failure = e;
        continue;
      }
      const name = ev.event !== 'message' ? ev.event : String(data.type);
      if (name === 'message_stop') this.done = true;
      if (!clean(name, data) || data.type !== name) {
        this.flush(parts, out);
        parts.push({ type: 'native-event', dialect: ANTHROPIC_FORMAT, event: name, data: this.owned(name, data) });
      } else if (name === 'message_start' || ev.data.includes('\n')) {
        out.text += `event: ${name}\ndata: ${JSON.stringify(this.owned(name, data))}\n\n`;
      } else out.text += `event: ${name}\ndata: ${ev.data}\n\n`;
    }
    this.flush(parts, out);
    parts.push(...side);
    if (this.started) return parts;
    this.pending = parts;
    return [];
  }

  /** An event failed after the events before it were handed out: the stream ends with that failure (end()). */
  get failed(): boolean {
    return this.failure !== undefined;
  }

  /** The end of the upstream's body: what was held, or the full path's error (a failed event, a stream cut short). */
  end(): TextStreamPart[] {
    if (this.failure) throw this.failure;
    this.mapper.end();
    return this.pending;
  }

  /** One event as the full path reads it (checked against the event schema, an error event thrown), its parts noted. */
  private read(event: string, text: string, side: TextStreamPart[], out: { generated: string }): Json {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      throw malformedUpstream('a stream event that is not valid JSON');
    }
    const checked = checkUpstream(anthropicStreamEventSchema, raw, 'a stream event');
    this.note(this.mapper.push({ ...checked, type: event !== 'message' ? event : checked.type }), side, out);
    return isObject(raw) ? raw : {};
  }

  /** The mapper's parts for one event: the text it generated counted, its input usage and finish kept to follow the events. */
  private note(parts: TextStreamPart[], side: TextStreamPart[], out: { generated: string }): void {
    for (const p of parts) {
      this.started = true;
      if (p.type === 'text-delta' || p.type === 'reasoning-delta') out.generated += p.delta;
      else if (p.type === 'input-usage' || p.type === 'finish') side.push(p);
    }
  }

  /** message_start with the message's id and model the client's adapter writes; any other event as it came. */
  private owned(name: string, data: Json): Json {
    if (name !== 'message_start' || !isObject(data.message)) return data;
    return { ...data, message: { ...data.message, ...this.forward.fields } };
  }

  /** The events so far, added to the forwarded part they follow (one part per upstream read), else in a new one. */
  private flush(parts: TextStreamPart[], out: { text: string; generated: string }): void {
    if (!out.text && !out.generated) return;
    const last = parts[parts.length - 1];
    if (last?.type === 'forwarded-events') {
      last.text += out.text;
      last.generated += out.generated;
    } else parts.push({ type: 'forwarded-events', dialect: ANTHROPIC_FORMAT, text: out.text, generated: out.generated });
    out.text = out.generated = '';
  }
}
