/**
 * Same-format passthrough for /v1/responses: what the upstream gets (the client's body, less what only the gateway
 * can resolve) and what the client gets back (the upstream's response and events, with the gateway's response id
 * and the client's model name, so GET, input_items, delete and previous_response_id keep working on the
 * gateway's store). Output items keep the upstream's ids: reasoning items travel back to the upstream by them.
 */
import type { GatewayError, NativeRequest, StoredConversation, StreamForwarding, TextResult, TextStreamPart } from '@gateway/core';
import type { SseMessage } from '@gateway/http-kit';
import type { ResponseHeader } from './responses.response.codec';

type Json = Record<string, any>;
const FORMAT = 'openai-responses';

/**
 * The body an upstream of this format gets; marked `translate` when the input holds what only the gateway can open
 * (its own sealed compaction items): that request is converted instead. `previous_response_id` names a
 * gateway-stored response, so it is replaced by that history.
 */
export function nativeRequestOf(body: Json, input: unknown, previous: StoredConversation | undefined, unread: string[]): NativeRequest {
  const { previous_response_id: _previous, ...rest } = body;
  const sealed = Array.isArray(input) && input.some((i: Json) => i?.type === 'compaction');
  return {
    dialect: FORMAT,
    body: input === undefined ? rest : { ...rest, input },
    unread,
    ...(previous ? { history: previous } : {}),
    ...(sealed ? { translate: true as const } : {}),
  };
}

/** The upstream's response object as the gateway's own. */
function owned(response: Json, header: ResponseHeader): Json {
  return { ...response, id: header.id, model: header.model, previous_response_id: header.body.previous_response_id ?? null };
}

/** A non-streaming answer: the upstream's own document when it came in this format. */
export function nativeDocument(result: TextResult, header: ResponseHeader): Json | undefined {
  return result.native?.dialect === FORMAT ? owned(result.native.body, header) : undefined;
}

/** A field of forwarded events' text; never inside a JSON string, where a quote is escaped. */
const SEQUENCE = '"sequence_number":';

/**
 * A stream whose upstream speaks this format: its events are relayed as they came. Events about output items come
 * forwarded (`forwarded-events`: SSE text as the upstream wrote it, no owned field in them) when the call took the
 * offer, else one native event each; events carrying a response object always come as native events and get the
 * response owned as above. The canonical parts beside them are left to the stored conversation.
 */
export class NativeEventRelay {
  /** true once the first part was an upstream event of this format */
  active = false;
  private seq = 0;
  private final: Json | undefined;

  constructor(private readonly header: ResponseHeader) {}

  /**
   * The offer to take the upstream's own events (core stream-forwarding.ts): the response object's fields this
   * adapter writes. The forwarder sends every event that carries a response object as a native event, which relay()
   * owns here, so it writes none of them itself.
   */
  forwarding(): StreamForwarding {
    const previous = this.header.body.previous_response_id;
    const fields = {
      id: this.header.id,
      model: this.header.model,
      ...(typeof previous === 'string' ? { previous_response_id: previous } : {}),
    };
    return { dialect: FORMAT, fields };
  }

  /** The parts, noting whether the upstream relays its own events (known before start() runs: the pump pulls first). */
  async *watch(parts: AsyncIterable<TextStreamPart>): AsyncGenerator<TextStreamPart> {
    for await (const p of parts) {
      if ((p.type === 'native-event' || p.type === 'forwarded-events') && p.dialect === FORMAT) this.active = true;
      yield p;
    }
  }

  relay(part: TextStreamPart): SseMessage[] {
    if (part.type === 'forwarded-events' && part.dialect === FORMAT) {
      // the last event's number, so a failure is numbered after it
      const at = part.text.lastIndexOf(SEQUENCE);
      const last = at < 0 ? NaN : parseInt(part.text.slice(at + SEQUENCE.length, at + SEQUENCE.length + 16), 10);
      if (last >= 0) this.seq = Math.max(this.seq, last + 1);
      return part.text ? [{ raw: part.text }] : [];
    }
    if (part.type !== 'native-event' || part.dialect !== FORMAT) return [];
    const data: Json = part.data.response ? { ...part.data, response: owned(part.data.response, this.header) } : part.data;
    if (typeof data.sequence_number === 'number') this.seq = data.sequence_number + 1;
    if (data.type === 'response.completed' || data.type === 'response.incomplete') this.final = data.response;
    return [{ event: part.event, data }];
  }

  /** The finished response (what GET returns), once the terminal event passed. */
  get document(): Json | undefined {
    return this.final;
  }

  /** A failure after the stream began: `error`, then `response.failed`, numbered after the upstream's events. */
  fail(err: GatewayError): SseMessage[] {
    const error = { type: 'error', code: err.code, message: err.message, param: err.param ?? null, sequence_number: this.seq++ };
    const response = owned(
      { object: 'response', status: 'failed', error: { code: err.code, message: err.message }, output: [] },
      this.header,
    );
    const failed = { type: 'response.failed', response, sequence_number: this.seq++ };
    return [
      { event: error.type, data: error },
      { event: failed.type, data: failed },
    ];
  }
}
