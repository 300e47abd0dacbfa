/**
 * The usual chat-completions stream event, a piece of text, as OpenAI and most compatible servers write it, read
 * without parsing the whole event: its head (id, object, created, model, then OpenAI's tier and fingerprint) matched
 * by one pattern, its one choice's text parsed as the one JSON string it is, its end one of the usual endings. The
 * translated path takes the text from it (readChatStream), the same-dialect forwarder the text and the event's tail.
 * Anything else is parsed whole and checked against the chunk schema, as before.
 */

/** OpenAI's processing tiers: a value among them is no upstream secret. */
export const SERVICE_TIERS = ['auto', 'default', 'flex', 'scale', 'priority'];
/** OpenAI's padding (its length hides the text's length on the wire): random characters, as they came. */
export const PADDING = ',"obfuscation":"';
export const USAGE_NULL = ',"usage":null}';

const TEXT_HEAD = new RegExp(
  `^\\{"id":"[^"\\\\]*","object":"chat\\.completion\\.chunk","created":\\d+,"model":"[^"\\\\]*",` +
    `("service_tier":"(${SERVICE_TIERS.join('|')})",)?("system_fingerprint":("[^"\\\\]*"|null),)?$`,
);
const TEXT_CHOICES = '"choices":[{"index":0,"delta":{"content":';
const TEXT_ENDS = ['},"logprobs":null,"finish_reason":null}]', '},"finish_reason":null}]'];

export interface UsualTextEvent {
  text: string;
  /** the tier the head names, if any */
  tier: string | undefined;
  /** the event from its choices on, without the padding field and the closing brace */
  choices: string;
  /** whether it ends with `"usage":null` (inside `choices`) */
  usageNull: boolean;
  /** the padding field as it came (`,"obfuscation":"…"`), or '' */
  pad: string;
}

/** An event's text without OpenAI's padding field (its last), and the padding as it came. */
function splitPadding(raw: string): { body: string; pad: string } {
  const at = raw.lastIndexOf(PADDING);
  if (at < 0 || !raw.endsWith('"}')) return { body: raw, pad: '' };
  const pad = raw.slice(at, -1);
  // a quote outside a JSON string is never escaped: one more quote or a backslash means this is not the last field
  if (/["\\]/.test(pad.slice(PADDING.length, -1))) return { body: raw, pad: '' };
  return { body: `${raw.slice(0, at)}}`, pad };
}

/** The event's parts when it is the usual text event, else undefined. */
export function usualTextEvent(raw: string): UsualTextEvent | undefined {
  const at = raw.indexOf(TEXT_CHOICES);
  const head = at < 0 ? null : TEXT_HEAD.exec(raw.slice(0, at));
  if (!head) return undefined;
  const { body, pad } = splitPadding(raw);
  const usageNull = body.endsWith(USAGE_NULL);
  let end = usageNull ? body.length - USAGE_NULL.length : body.endsWith('}') ? body.length - 1 : -1;
  const close = TEXT_ENDS.find((e) => body.startsWith(e, end - e.length));
  if (end < 0 || !close) return undefined;
  end -= close.length;
  let text: unknown;
  try {
    text = JSON.parse(body.slice(at + TEXT_CHOICES.length, end));
  } catch {
    return undefined; // not one string: the event has another shape, parsed whole
  }
  if (typeof text !== 'string') return undefined;
  return { text, tier: head[2], choices: body.slice(at, -1), usageNull, pad };
}
