import { nativeRequestFor } from './native-request';
import type { TextRequest } from './text';

/**
 * Same-dialect stream forwarding, the streaming half of native-request.ts. A client's inbound adapter offers it;
 * an upstream adapter of the client's dialect that takes it relays the upstream's events as they came
 * (`forwarded-events` parts: SSE text in the client's format), writing only the top-level fields the client's
 * adapter owns (`fields`: its ids, the model name the client asked for) in place of the upstream's, and still ends
 * with the canonical finish part (usage and finish reason read on the side), so routing, usage rows, billing and
 * metrics see what they see on the full path. Anything between the upstream and the client that reads or rewrites
 * the parts takes the offer back (`forwardingOffer`); anything else keeps the full path (decode, canonical parts,
 * encode).
 */
export interface StreamForwarding {
  /** the client's dialect: only an upstream adapter of this dialect may forward */
  dialect: string;
  /** top-level fields of every event the client's adapter writes itself, in the order its events carry them */
  fields: Readonly<Record<string, string | number>>;
}

/**
 * Upstream events relayed as SSE text in the client's format (`StreamForwarding`). Only generated content and
 * the fields the client's adapter wrote are strings in it: an event with any other string goes as a `native-event`
 * part instead, which the redacting port reads.
 */
export interface ForwardedEventsPart {
  type: 'forwarded-events';
  dialect: string;
  /** whole `data:` messages, each ending in a blank line */
  text: string;
  /** the text and reasoning the events carry: what a stream cut short is charged for (as the deltas on the full path) */
  generated: string;
}

/** What stands between the upstream's parts and the client for one call. */
export interface StreamLayers {
  /** output guardrails read (and may mask or block) every part */
  guarded: boolean;
  /** the response cache keeps the parts as they pass */
  cached: boolean;
  /** the gateway moderates the stream's text itself and reports its verdicts in the finish */
  moderated: boolean;
}

/**
 * The client's offer as the call may take it: withdrawn when any layer reads or rewrites the parts. The hosted-MCP
 * loop, which reads each round's parts for its own tool calls, gives its rounds no offer at all (hosted-mcp-loop.ts).
 */
export function forwardingOffer(offer: StreamForwarding | undefined, layers: StreamLayers): StreamForwarding | undefined {
  if (!offer) return undefined;
  if (layers.guarded || layers.cached || layers.moderated) return undefined;
  return offer;
}

/**
 * The forwarding an upstream adapter of `dialect` may do for this request: the offer when the client wrote the
 * request in that dialect and it goes as written (nativeRequestFor), else none.
 */
export function forwardingFor(
  req: Pick<TextRequest, 'native'>,
  ctx: { forward?: StreamForwarding },
  dialect: string,
): StreamForwarding | undefined {
  const offer = ctx.forward;
  if (!offer || offer.dialect !== dialect || !nativeRequestFor(req, dialect)) return undefined;
  return offer;
}
