/**
 * What a call could not do as asked, as data. Providers and core produce these; the edge renders them to
 * text once (the x-gateway-warnings header, the usage log) through warningText / warningsHeader.
 */
export type Warning =
  /** a request setting the upstream does not honour as given (ignored, clamped, sent otherwise) */
  | { type: 'unsupported-setting'; setting: string; details?: string }
  /** content that could not travel: a part of the request, or of the answer, that was dropped or altered */
  | { type: 'dropped-content'; content: string; details?: string }
  | { type: 'other'; message: string };

export function unsupportedSetting(setting: string, details?: string): Warning {
  return { type: 'unsupported-setting', setting, details };
}

export function droppedContent(content: string, details?: string): Warning {
  return { type: 'dropped-content', content, details };
}

/** Each distinct warning once (converters may meet the same dropped part many times). */
export function distinctWarnings(warnings: readonly Warning[]): Warning[] {
  const seen = new Map<string, Warning>();
  for (const w of warnings) seen.set(warningText(w), w);
  return [...seen.values()];
}

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/**
 * A setting or content name may come from the caller (a passthrough field) or the upstream (a block type):
 * only a plain field-path alphabet is echoed, and never at length.
 */
function name(raw: string): string {
  const clean = raw.replace(/[^A-Za-z0-9_.[\]-]/g, '?');
  return clean.length > 64 ? `${clean.slice(0, 64)}...` : clean;
}

/** One warning as text: `<field>: <what happened>`, so logs and headers read alike. */
export function warningText(w: Warning): string {
  switch (w.type) {
    case 'unsupported-setting':
      return `${name(w.setting)}: ${w.details ?? 'not supported by the upstream; ignored'}`;
    case 'dropped-content':
      return `${name(w.content)}: ${w.details ?? 'dropped'}`;
    case 'other':
      return w.message;
  }
}

const HEADER_LIMIT = 1024;

/**
 * The x-gateway-warnings header value: the warnings joined, control characters stripped and anything outside
 * printable ASCII replaced (a header cannot carry either), at most 1 KB, cut at a warning boundary where one
 * fits. Undefined when there is nothing to say.
 */
export function warningsHeader(warnings: readonly Warning[]): string | undefined {
  if (!warnings.length) return undefined;
  let out = '';
  for (const w of warnings) {
    const text = warningText(w)
      .replace(CONTROL, '')
      .replace(/[^\x20-\x7e]/g, '?');
    const next = out ? `${out}; ${text}` : text;
    if (next.length > HEADER_LIMIT) return out || next.slice(0, HEADER_LIMIT);
    out = next;
  }
  return out;
}
