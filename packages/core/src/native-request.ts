import type { Message, TextRequest } from './text';

/**
 * Same-dialect passthrough. An inbound adapter keeps the client's own request beside the canonical one; an
 * outbound adapter of the same dialect sends that body (replacing only what routing decides: the model, and the
 * stream flag where the body carries one) instead of re-encoding the canonical request, so fields the canonical
 * model has no place for (cache_control on every block, context_management, thinkingConfig, reasoning items,
 * unknown fields) arrive unchanged. Where the adapter can also hand the upstream's own answer back (`NativeAnswer`,
 * `native-event` parts), the inbound adapter of that dialect relays it. The rest of the pipeline (auth, limits,
 * routing, failover, usage, redaction, metrics) still reads the canonical request and result.
 */
export interface NativeRequest {
  /**
   * The dialect the body is written in; an inbound format and an upstream adapter that speak it use the same
   * name: `anthropic-messages`, `gemini-content`, `openai-responses`, `openai-chat`.
   */
  dialect: string;
  /** the client's body as received and schema-checked (after the gateway resolved what only it can, e.g. item references); never mutated */
  body: Readonly<Record<string, unknown>>;
  /**
   * Client headers that are part of the dialect's request (lower-case names, e.g. `anthropic-beta`); never
   * credentials. The upstream adapter applies its provider's forwarding policy to them.
   */
  headers?: Readonly<Record<string, string>>;
  /**
   * History the gateway holds for the client (a stored `previous_response_id`): the upstream never saw its ids,
   * so the adapter renders it ahead of the body's own input.
   */
  history?: { system?: string; messages: Message[] };
  /**
   * Top-level fields of `body` the canonical request has no place for (the inbound codec's list). An upstream of
   * this dialect that converts rather than forwards still sends them; any other names each in a warning
   * (provider-kit conversion-helpers `unreadFields`).
   */
  unread?: readonly string[];
  /**
   * The body cannot go upstream as written (it holds what only the gateway can open, e.g. its own sealed compaction
   * items): every upstream converts the canonical request instead.
   */
  translate?: true;
}

/** An upstream's own non-streaming answer, in the dialect of the request's `native`. */
export interface NativeAnswer {
  dialect: string;
  body: Record<string, unknown>;
}

/**
 * One upstream stream event, in the dialect of the request's `native`. The adapter yields it beside the canonical
 * parts (which still carry text, usage and the finish), so a consumer of another format simply skips it.
 */
export interface NativeEventPart {
  type: 'native-event';
  dialect: string;
  /** the SSE event name */
  event: string;
  data: Record<string, unknown>;
}

/** The client's own request when it was written in `dialect` and may go as written, else undefined: the test every adapter uses. */
export function nativeRequestFor(req: Pick<TextRequest, 'native'>, dialect: string): NativeRequest | undefined {
  return req.native?.dialect === dialect && !req.native.translate ? req.native : undefined;
}

/** The native body with the fields routing owns replaced (`model`, `stream`); a value of undefined removes the field. */
export function nativeBody(native: NativeRequest, replace: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = { ...native.body, ...replace };
  for (const [k, v] of Object.entries(replace)) if (v === undefined) delete body[k];
  return body;
}
