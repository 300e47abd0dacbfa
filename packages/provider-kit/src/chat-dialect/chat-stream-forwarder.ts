import type { StreamForwarding, TextStreamPart } from '@gateway/core';
import type { SseEvent } from '../sse-parser';
import { isEventObject, keysIn, StreamForwarder, type EventJson } from '../stream-forwarder';
import { checkUpstream } from '../upstream-schema';
import { chatChunkSchema, type ChatChunk } from './chat-api';
import { CHAT_FORMAT } from './chat-dialect';
import { SERVICE_TIERS, USAGE_NULL, usualTextEvent } from './usual-text-event';
import { chatStreamError } from './chat-error';
import type { ChatStreamMapper } from './map-chat-stream';

/** Top-level fields a forwarded chunk may carry besides those the client's adapter writes: no upstream string among them but generated content. */
const CHUNK_KEYS = new Set(['choices', 'usage']);
const CHOICE_KEYS = new Set(['index', 'delta', 'logprobs', 'finish_reason']);
/** delta fields: generated content, the role, and tool calls (whose ids and names the full path relays as they are too) */
const DELTA_KEYS = new Set(['role', 'content', 'reasoning_content', 'reasoning', 'refusal', 'tool_calls']);
const TOOL_CALL_KEYS = new Set(['index', 'id', 'type', 'function']);
const FINISH_REASONS = new Set(['stop', 'length', 'tool_calls', 'content_filter', 'function_call']);
const HEAD_FIELDS = ['id', 'object', 'created', 'model', 'system_fingerprint'];

/** Fields an event may carry besides its content, with no upstream secret in them: OpenAI's tier and padding. */
const vouched = (k: string, v: unknown): boolean =>
  (k === 'service_tier' && SERVICE_TIERS.includes(v as string)) || (k === 'obfuscation' && typeof v === 'string');

const numbersOnly = (v: unknown): boolean =>
  v === null ||
  typeof v === 'number' ||
  (isEventObject(v) && Object.values(v).every((x) => x === null || typeof x === 'number' || numbersOnly(x)));

function cleanToolCall(c: unknown): boolean {
  if (!isEventObject(c) || !keysIn(c, TOOL_CALL_KEYS) || (c.type !== undefined && c.type !== 'function')) return false;
  return c.function === undefined || (isEventObject(c.function) && keysIn(c.function, new Set(['name', 'arguments'])));
}

function cleanChoice(c: unknown): boolean {
  if (!isEventObject(c) || !keysIn(c, CHOICE_KEYS)) return false;
  if (c.finish_reason != null && !FINISH_REASONS.has(c.finish_reason as string)) return false;
  const d = c.delta;
  if (d === undefined) return true;
  if (!isEventObject(d) || !keysIn(d, DELTA_KEYS) || (d.role != null && d.role !== 'assistant')) return false;
  if (d.content != null && typeof d.content !== 'string') return false;
  return d.tool_calls === undefined || (Array.isArray(d.tool_calls) && d.tool_calls.every(cleanToolCall));
}

/**
 * A chat-completions stream forwarded to a client of the same dialect (core stream-forwarding.ts, the skeleton in
 * stream-forwarder.ts). Each upstream chunk's events become one `forwarded-events` part: every event as the upstream
 * wrote it from `"choices":` on, after the fields the client's adapter writes (its id, its model name). An event with
 * an upstream string other than generated content (an unknown field, an unknown finish reason) goes as a
 * `native-event` part instead, which the redacting port reads. Usage the gateway asked for and the client did not is
 * left out. Every event still goes through the full path's schema and mapper, which read the usage, the finish reason
 * and the generated text on the side.
 */
export class ChatStreamForwarder extends StreamForwarder {
  private readonly head: string;
  private readonly owned: Set<string>;
  /** the client's adapter writes every field of the usual event's head: textEvent() may replace it whole */
  private readonly fast: boolean;

  constructor(
    private readonly forward: StreamForwarding,
    private readonly includeUsage: boolean,
    private readonly mapper: ChatStreamMapper,
  ) {
    super(CHAT_FORMAT);
    const fields = JSON.stringify(forward.fields);
    this.head = fields === '{}' ? '{' : `${fields.slice(0, -1)},`;
    this.owned = new Set(Object.keys(forward.fields));
    this.fast = HEAD_FIELDS.every((k) => this.owned.has(k));
  }

  protected forwardEvent(ev: SseEvent): void {
    const piece = this.fast && this.textEvent(ev.data);
    if (piece) {
      if (piece.text) this.started = true;
      this.send(`data: ${this.head}${piece.tail}\n\n`, piece.text);
      return;
    }
    if (ev.data.trim() === '[DONE]') {
      this.done = true;
      this.mapper.markDone();
      return;
    }
    const data = this.read(ev.data);
    this.shown(this.mapper.push(data.checked));
    const out = this.rewrite(data.raw, ev.data);
    if (typeof out === 'string') this.send(`data: ${out}\n\n`);
    else if (out) this.sendNative('message', out);
  }

  protected finish(): TextStreamPart[] {
    return this.mapper.end();
  }

  /**
   * A text-only event in the usual shape: its text, and what follows the upstream's fields as the client gets it (the
   * tier and the padding OpenAI adds kept where they were).
   */
  private textEvent(raw: string): { text: string; tail: string } | undefined {
    const e = usualTextEvent(raw);
    if (!e) return undefined;
    const kept = this.includeUsage || !e.usageNull ? e.choices : e.choices.slice(0, 1 - USAGE_NULL.length);
    const tier = e.tier && !this.owned.has('service_tier') ? `"service_tier":"${e.tier}",` : '';
    return { text: e.text, tail: `${tier}${kept}${e.pad}}` };
  }

  /** One event's data as sent, and as the full path reads it (checked against the chunk schema, an error event thrown). */
  private read(text: string): { raw: EventJson; checked: ChatChunk } {
    const raw = this.parse(text);
    const checked = checkUpstream(chatChunkSchema, raw, 'a stream chunk');
    if (checked.error) throw chatStreamError(checked.error);
    return { raw: raw as EventJson, checked };
  }

  /** One event for the client: its text, an object to send as a native event, or undefined to leave it out. */
  private rewrite(data: EventJson, raw: string): string | EventJson | undefined {
    const usage = data.usage;
    const choices = data.choices;
    const dropUsage = !this.includeUsage && usage !== undefined;
    if (dropUsage && usage !== null && !(Array.isArray(choices) && choices.length)) return undefined;
    if (!this.clean(data)) return this.object(data, dropUsage);
    const at = raw.indexOf('"choices":');
    if (at < 0 || !this.headerFirst(data)) return JSON.stringify(this.object(data, dropUsage));
    let tail = raw.slice(at);
    if (dropUsage) {
      if (usage !== null || !tail.endsWith(USAGE_NULL)) return JSON.stringify(this.object(data, dropUsage));
      tail = `${tail.slice(0, -USAGE_NULL.length)}}`;
    }
    return `${this.head}${tail}`;
  }

  private clean(data: EventJson): boolean {
    for (const k of Object.keys(data)) if (!CHUNK_KEYS.has(k) && !this.owned.has(k) && !vouched(k, data[k])) return false;
    if (data.usage !== undefined && !numbersOnly(data.usage)) return false;
    return Array.isArray(data.choices) && data.choices.every(cleanChoice);
  }

  /** Only fields the client's adapter writes come before `choices`, each a plain value, and none after it. */
  private headerFirst(data: EventJson): boolean {
    let before = true;
    for (const k of Object.keys(data)) {
      if (k === 'choices') before = false;
      else if (before !== this.owned.has(k)) return false;
      else if (before && typeof data[k] === 'object' && data[k] !== null) return false;
    }
    return true;
  }

  private object(data: EventJson, dropUsage: boolean): EventJson {
    const out: EventJson = { ...this.forward.fields };
    for (const [k, v] of Object.entries(data)) if (!this.owned.has(k) && !(dropUsage && k === 'usage')) out[k] = v;
    return out;
  }
}
