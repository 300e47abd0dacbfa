import {
  credentialHeaders,
  GatewayError,
  isGatewayError,
  type CallContext,
  type ImageModelPort,
  type ImageResult,
  type ImageStreamPart,
  type TextModelPort,
  type TextResult,
  type TextStreamPart,
  type VideoArtifact,
  type VideoModelPort,
  type VideoStatus,
} from '@gateway/core';
import { MIN_FRAGMENT, redactDeep, redactNative, type Redact } from './secret-redactor';
import { videoPortExtras } from './video-port-extras';

/**
 * Where upstream errors are redacted: the choke point every upstream-derived value passes on its way
 * into the gateway: the model ports an adapter hands to the provider registry (built-in or outside module alike;
 * the upstream client redacts nothing). Errors (messages, upstream codes, request ids, result downloads), the metadata
 * the gateway copies (ids, model names, request ids, warnings) and video failures are redacted here;
 * generated content (text, reasoning, tool calls, images) is the model's and passes unchanged. A same-format
 * answer (`native` answers and `native-event` parts) is the upstream's own JSON: every string in it is redacted but
 * its generated fields (secret-redactor.ts, redactNative); a failed response or an error event becomes a
 * GatewayError in the adapter, redacted here. Forwarded events (`forwarded-events` parts) pass as generated content
 * does: the forwarding adapter lets through as text only events whose strings are generated content or the fields
 * the client's own adapter wrote, and hands any other event over as a `native-event` part.
 */

/**
 * What the redactor of a provider entry cuts out: its apiKey and its header values (core provider-credentials.ts),
 * which an upstream may echo in an error as it may a key. A header value shorter than MIN_FRAGMENT is a setting
 * (`v2`, `true`), not a credential: matched whole, it would cut ordinary words out of every answer.
 */
export function providerSecrets(entry: { apiKey?: string; options?: Record<string, unknown> }): string[] {
  const headers = Object.values(credentialHeaders(entry)).filter((v) => v.length >= MIN_FRAGMENT);
  return entry.apiKey ? [entry.apiKey, ...headers] : headers;
}

/** An error that left an adapter, rebuilt with its upstream-derived text redacted (its cause, which may hold request headers, dropped). */
export function redactError(e: unknown, redact: Redact): unknown {
  if (!isGatewayError(e)) return e;
  return new GatewayError(e.reason, redact(e.message), {
    code: e.code,
    param: e.param,
    retryAfterSeconds: e.retryAfterSeconds,
    upstreamStatus: e.upstreamStatus,
    upstreamCode: e.upstreamCode === undefined ? undefined : redact(e.upstreamCode),
    upstreamRequestId: e.upstreamRequestId === undefined ? undefined : redact(e.upstreamRequestId),
    upstreamMessage: e.upstreamMessage === undefined ? undefined : redact(e.upstreamMessage),
  });
}

async function guarded<T>(call: () => Promise<T>, redact: Redact): Promise<T> {
  try {
    return await call();
  } catch (e) {
    throw redactError(e, redact);
  }
}

async function* guardedStream<T>(parts: () => AsyncIterable<T>, each: (p: T) => T, redact: Redact): AsyncGenerator<T> {
  try {
    for await (const p of parts()) yield each(p);
  } catch (e) {
    throw redactError(e, redact);
  }
}

function textResult(r: TextResult, redact: Redact): TextResult {
  return {
    ...r,
    ...(r.id === undefined ? {} : { id: redact(r.id) }),
    model: redact(r.model),
    warnings: r.warnings.map((w) => redactDeep(w, redact)),
    ...(r.upstreamRequestId === undefined ? {} : { upstreamRequestId: redact(r.upstreamRequestId) }),
    ...(r.native ? { native: { ...r.native, body: redactNative(r.native.body, redact) } } : {}),
  };
}

function textPart(p: TextStreamPart, redact: Redact): TextStreamPart {
  if (p.type === 'native-event') return { ...p, event: redact(p.event), data: redactNative(p.data, redact) };
  if (p.type !== 'finish') return p;
  return {
    ...p,
    ...(p.warnings ? { warnings: p.warnings.map((w) => redactDeep(w, redact)) } : {}),
    ...(p.upstreamRequestId === undefined ? {} : { upstreamRequestId: redact(p.upstreamRequestId) }),
  };
}

export function redactingTextPort(port: TextModelPort, redact: Redact): TextModelPort {
  const countTokens = port.countTokens?.bind(port);
  return {
    generate: (req, ctx) => guarded(async () => textResult(await port.generate(req, ctx), redact), redact),
    stream: (req, ctx: CallContext) =>
      guardedStream(
        () => port.stream(req, ctx),
        (p) => textPart(p, redact),
        redact,
      ),
    ...(countTokens ? { countTokens: (req, ctx) => guarded(() => countTokens(req, ctx), redact) } : {}),
    ...(port.hostedToolFormats ? { hostedToolFormats: port.hostedToolFormats } : {}),
    ...(port.moderatesInBand ? { moderatesInBand: true } : {}),
  };
}

function imageResult(r: ImageResult, redact: Redact): ImageResult {
  return { ...r, warnings: r.warnings.map((w) => redactDeep(w, redact)) };
}

function imagePart(p: ImageStreamPart, redact: Redact): ImageStreamPart {
  return p.type === 'finish' ? { ...p, warnings: p.warnings.map((w) => redactDeep(w, redact)) } : p;
}

export function redactingImagePort(port: ImageModelPort, redact: Redact): ImageModelPort {
  const stream = port.stream?.bind(port);
  return {
    generate: (req, ctx) => guarded(async () => imageResult(await port.generate(req, ctx), redact), redact),
    ...(stream
      ? {
          stream: (req, ctx) =>
            guardedStream(
              () => stream(req, ctx),
              (p) => imagePart(p, redact),
              redact,
            ),
        }
      : {}),
  };
}

/** A result file's download fails like any upstream call: its error is redacted too. */
function artifact(a: VideoArtifact, redact: Redact): VideoArtifact {
  const { thumbnail, dispose } = a;
  return {
    ...a,
    open: () => guarded(() => a.open(), redact),
    ...(thumbnail ? { thumbnail: { ...thumbnail, open: () => guarded(() => thumbnail.open(), redact) } } : {}),
    ...(dispose ? { dispose: () => guarded(() => dispose.call(a), redact) } : {}),
  };
}

function videoStatus(s: VideoStatus, redact: Redact): VideoStatus {
  if (s.state === 'failed') return { state: 'failed', code: redact(s.code), message: redact(s.message) };
  return s.state === 'succeeded' ? { ...s, artifact: artifact(s.artifact, redact) } : s;
}

/** The operation reference stays as the upstream made it: it is never shown, and polling needs it verbatim. */
export function redactingVideoPort(port: VideoModelPort, redact: Redact): VideoModelPort {
  const cancel = port.cancel?.bind(port);
  return {
    start: (req, ctx) => guarded(() => port.start(req, ctx), redact),
    status: (ref, ctx) => guarded(async () => videoStatus(await port.status(ref, ctx), redact), redact),
    ...(cancel ? { cancel: (ref) => guarded(() => cancel(ref), redact) } : {}),
    ...videoPortExtras(port, (e) => redactError(e, redact)),
  };
}

/**
 * A port of a metered kind (embeddings, rerank, moderation, speech, transcription) behind the redactor: its errors
 * and the warnings and request id of its answers. What it generates (vectors, scores, audio, text) passes unchanged;
 * a method returning a stream (AsyncIterable) has the errors of its parts redacted.
 */
function redactingMeteredPort<P extends object>(port: P, redact: Redact): P {
  const out: Record<string, unknown> = {};
  for (const name of methodNames(port)) {
    const member = (port as Record<string, unknown>)[name];
    const method = (member as (...args: unknown[]) => unknown).bind(port);
    out[name] = (...args: unknown[]) => {
      const made = method(...args);
      if (made && typeof (made as Promise<unknown>).then === 'function')
        return guarded(async () => meteredAnswer(await (made as Promise<unknown>), redact), redact);
      if (made && Symbol.asyncIterator in (made as object))
        return guardedStream(
          () => made as AsyncIterable<unknown>,
          (p) => p,
          redact,
        );
      return made;
    };
  }
  return out as P;
}

/** A port's methods: its own and (a class instance) its prototypes'. */
function methodNames(port: object): string[] {
  const names = new Set<string>();
  for (let o: object | null = port; o && o !== Object.prototype; o = Object.getPrototypeOf(o) as object | null)
    for (const n of Object.getOwnPropertyNames(o))
      if (n !== 'constructor' && typeof (port as Record<string, unknown>)[n] === 'function') names.add(n);
  return [...names];
}

function meteredAnswer(answer: unknown, redact: Redact): unknown {
  if (!answer || typeof answer !== 'object') return answer;
  const a = answer as { warnings?: unknown[]; upstreamRequestId?: string };
  return {
    ...a,
    ...(Array.isArray(a.warnings) ? { warnings: a.warnings.map((w) => redactDeep(w, redact)) } : {}),
    ...(a.upstreamRequestId === undefined ? {} : { upstreamRequestId: redact(a.upstreamRequestId) }),
  };
}

const METERED_PORTS = ['embedding', 'rerank', 'moderation', 'speech', 'transcription'] as const;

/** One upstream's ports, each behind the redactor. */
export function redactingPorts<
  P extends { text?: TextModelPort; image?: ImageModelPort; video?: VideoModelPort } & Partial<
    Record<(typeof METERED_PORTS)[number], object>
  >,
>(ports: P, redact: Redact): P {
  const metered = Object.fromEntries(METERED_PORTS.flatMap((k) => (ports[k] ? [[k, redactingMeteredPort(ports[k]!, redact)]] : [])));
  return {
    ...ports,
    ...(ports.text ? { text: redactingTextPort(ports.text, redact) } : {}),
    ...(ports.image ? { image: redactingImagePort(ports.image, redact) } : {}),
    ...(ports.video ? { video: redactingVideoPort(ports.video, redact) } : {}),
    ...metered,
  };
}
