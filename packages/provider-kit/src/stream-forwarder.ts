import type { StreamForwarding, TextStreamPart } from '@gateway/core';
import { SseSplitter, type SseEvent } from './sse-parser';
import { malformedUpstream } from './upstream-errors';

/** A client's offer to take the upstream's own events (core stream-forwarding.ts), as a forwarder receives it. */
export type Forwarding = StreamForwarding;
/** An upstream event's JSON, as the forwarders vet it. */
export type EventJson = Record<string, unknown>;
/** A JSON object (not an array, not null). */
export const isEventObject = (v: unknown): v is EventJson => typeof v === 'object' && v !== null && !Array.isArray(v);
/** Whether every key of an event's object is one the dialect vouches for. */
export const keysIn = (o: EventJson, allowed: ReadonlySet<string>): boolean => Object.keys(o).every((k) => allowed.has(k));

/**
 * What every same-dialect stream forwarder does (core stream-forwarding.ts), whatever its dialect: split the
 * upstream's bytes into events, let the dialect forward each one (as text for the client, or as a `native-event`
 * part when it carries an upstream string other than generated content), and hand out one `forwarded-events` part
 * per upstream read. Every event still goes through the full path's mapper (the dialect calls `shown` with its
 * parts): nothing is sent before the mapper has a part to show, so failover stops where it stops on the full path,
 * and a failure after that ends the stream after the events before it, as they would go one by one on the full path.
 */
export abstract class StreamForwarder {
  private readonly splitter = new SseSplitter();
  /** the upstream said its stream is over: what follows is ignored */
  protected done = false;
  /** the mapper has shown a part: from here on a failure comes after the events before it */
  protected started = false;
  private failure: unknown;
  /** held until the stream has a first part, then sent with it */
  private pending: TextStreamPart[] = [];
  /** the read being handled: its parts so far, the events not yet in one, and the parts that follow its events */
  private parts: TextStreamPart[] = [];
  private text = '';
  private generated = '';
  private following: TextStreamPart[] = [];

  protected constructor(private readonly dialect: string) {}

  /** One upstream event: `send` it, `sendNative` it or leave it out, and give the mapper's parts to `shown`. A throw is the full path's error. */
  protected abstract forwardEvent(ev: SseEvent): void;

  /** The parts that end the stream (the mapper's finish), or its error (a stream cut short). */
  protected abstract finish(): TextStreamPart[];

  /** The parts one upstream chunk completes (none while the stream has nothing to show yet). */
  push(chunk: Uint8Array | string): TextStreamPart[] {
    const parts = this.pending;
    this.pending = [];
    this.parts = parts;
    for (const ev of this.splitter.push(chunk)) {
      if (this.done || this.failure) continue;
      try {
        this.forwardEvent(ev);
      } catch (e) {
        if (!this.started) throw e;
        this.failure = e;
      }
    }
    this.flush();
    parts.push(...this.following);
    this.following = [];
    if (this.started) return parts;
    this.pending = parts;
    return [];
  }

  /** The parts of a whole upstream body, read by read; reading stops at a failed event, which end() then throws. */
  async *relay(body: AsyncIterable<Uint8Array | string>): AsyncGenerator<TextStreamPart> {
    for await (const chunk of body) {
      yield* this.push(chunk);
      if (this.failed) break;
    }
    yield* this.end();
  }

  /** An event failed after the events before it were handed out: the stream ends with that failure (end()). */
  get failed(): boolean {
    return this.failure !== undefined;
  }

  /** The end of the upstream's body: what was held, then the finish (or the full path's error: a failed event, a stream cut short). */
  end(): TextStreamPart[] {
    if (this.failure) throw this.failure;
    const finish = this.finish();
    return [...this.pending, ...finish];
  }

  /** An event's data as JSON; data that is not JSON fails the stream as the full path's parser would. */
  protected parse(text: string): unknown {
    try {
      return JSON.parse(text);
    } catch {
      throw malformedUpstream('a stream event that is not valid JSON');
    }
  }

  /** SSE text for the client (whole messages), and the text and reasoning it carries. */
  protected send(text: string, generated = ''): void {
    this.text += text;
    this.generated += generated;
  }

  /** An event handed over as the upstream's own JSON (the redacting port reads it), after the events before it. */
  protected sendNative(event: string, data: Record<string, unknown>): void {
    this.flush();
    this.parts.push({ type: 'native-event', dialect: this.dialect, event, data });
  }

  /** A canonical part the client's adapter does not encode but the gateway reads (usage, the finish): after this read's events. */
  protected follow(part: TextStreamPart): void {
    this.following.push(part);
  }

  /** The mapper's parts for one event: the stream has something to show, and the text they generated is counted. */
  protected shown(parts: TextStreamPart[]): void {
    for (const p of parts) {
      this.started = true;
      if (p.type === 'text-delta' || p.type === 'reasoning-delta') this.generated += p.delta;
    }
  }

  /** The events so far, added to the forwarded part they follow (one part per upstream read), else in a new one. */
  private flush(): void {
    const { text, generated } = this;
    if (!text && !generated) return;
    this.text = this.generated = '';
    const last = this.parts[this.parts.length - 1];
    if (last?.type === 'forwarded-events') {
      last.text += text;
      last.generated += generated;
    } else this.parts.push({ type: 'forwarded-events', dialect: this.dialect, text, generated });
  }
}
