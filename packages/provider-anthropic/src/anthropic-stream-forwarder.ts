import {
  checkUpstream,
  isEventObject,
  keysIn,
  StreamForwarder,
  type EventJson,
  type Forwarding,
  type SseEvent,
  type TextStreamPart,
} from '@gateway/provider-kit';
import { anthropicStreamEventSchema } from './anthropic-api';
import { ANTHROPIC_FORMAT } from './convert-to-anthropic-request';
import type { AnthropicStreamMapper } from './map-anthropic-stream';

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

const typed = (o: unknown, kinds: Record<string, Set<string>>) =>
  isEventObject(o) && typeof o.type === 'string' && Object.hasOwn(kinds, o.type) && keysIn(o, kinds[o.type]!);

function cleanUsage(u: unknown): boolean {
  if (u === undefined) return true;
  if (!isEventObject(u)) return false;
  return Object.entries(u).every(([k, v]) =>
    k === 'service_tier'
      ? v === null || SERVICE_TIERS.has(v as string)
      : v === null || typeof v === 'number' || (isEventObject(v) && Object.values(v).every((x) => x === null || typeof x === 'number')),
  );
}

function cleanMessage(m: unknown): boolean {
  if (!isEventObject(m) || !keysIn(m, MESSAGE_KEYS) || m.type !== 'message' || m.role !== 'assistant') return false;
  const empty = Array.isArray(m.content) && m.content.length === 0;
  return empty && m.stop_reason == null && m.stop_sequence == null && cleanUsage(m.usage);
}

/** Whether an event's only upstream strings are generated content, its stop reason and the client's own stop sequence. */
function clean(name: string, data: EventJson): boolean {
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
      if (!keysIn(data, new Set(['type', 'delta', 'usage'])) || !isEventObject(d) || !keysIn(d, new Set(['stop_reason', 'stop_sequence'])))
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
 * A Messages stream forwarded to a Messages client (core stream-forwarding.ts, the skeleton in provider-kit's
 * stream-forwarder.ts). Each upstream read's events become one `forwarded-events` part: every event as the upstream
 * wrote it, but message_start, whose nested message id and model the client's adapter writes (`fields`). An event
 * with an upstream string other than generated content (a server tool's block, a citation, an unknown event or stop
 * reason) goes as a `native-event` part instead, which the redacting port reads. Every event still goes through the
 * full path's schema and mapper, which read the usage, the stop reason and the generated text on the side (its
 * `input-usage` and `finish` parts follow the events).
 */
export class AnthropicStreamForwarder extends StreamForwarder {
  constructor(
    private readonly forward: Forwarding,
    private readonly mapper: AnthropicStreamMapper,
  ) {
    super(ANTHROPIC_FORMAT);
  }

  protected forwardEvent(ev: SseEvent): void {
    if (ev.data.trim() === '[DONE]') {
      this.done = true;
      return;
    }
    const text = ev.event === 'content_block_delta' && TEXT_DELTA.exec(ev.data);
    if (text) {
      const delta = { type: 'text_delta', text: JSON.parse(text[2]!) as string };
      this.note(this.mapper.push({ type: 'content_block_delta', index: Number(text[1]), delta }));
      this.send(`event: content_block_delta\ndata: ${ev.data}\n\n`);
      return;
    }
    const data = this.read(ev.event, ev.data);
    const name = ev.event !== 'message' ? ev.event : String(data.type);
    if (name === 'message_stop') this.done = true;
    if (!clean(name, data) || data.type !== name) this.sendNative(name, this.owned(name, data));
    else if (name === 'message_start' || ev.data.includes('\n')) {
      this.send(`event: ${name}\ndata: ${JSON.stringify(this.owned(name, data))}\n\n`);
    } else this.send(`event: ${name}\ndata: ${ev.data}\n\n`);
  }

  protected finish(): TextStreamPart[] {
    this.mapper.end();
    return [];
  }

  /** One event as the full path reads it (checked against the event schema, an error event thrown), its parts noted. */
  private read(event: string, text: string): EventJson {
    const raw = this.parse(text);
    const checked = checkUpstream(anthropicStreamEventSchema, raw, 'a stream event');
    this.note(this.mapper.push({ ...checked, type: event !== 'message' ? event : checked.type }));
    return isEventObject(raw) ? raw : {};
  }

  /** The mapper's parts for one event: the text it generated counted, its input usage and finish kept to follow the events. */
  private note(parts: TextStreamPart[]): void {
    this.shown(parts);
    for (const p of parts) if (p.type === 'input-usage' || p.type === 'finish') this.follow(p);
  }

  /** message_start with the message's id and model the client's adapter writes; any other event as it came. */
  private owned(name: string, data: EventJson): EventJson {
    if (name !== 'message_start' || !isEventObject(data.message)) return data;
    return { ...data, message: { ...data.message, ...this.forward.fields } };
  }
}
