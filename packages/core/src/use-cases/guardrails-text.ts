import type { GuardrailSpec } from '../guardrails/guardrail';
import type { UsageLog } from '../ports/usage-log.port';
import type { AssistantContent, Message, TextRequest, TextResult, TextStreamPart, ToolDefinition } from '../text';
import { Guardrails, type GuardrailCall } from './guardrails';
import { maskedNative, rewriteValues } from './guardrails-native';

/**
 * The guardrails layer of a text call (the outer layer of TextGeneration: input guardrails, then the cache and the
 * routed call, then output guardrails). A request whose texts were masked or modified keeps its `native` body only
 * masked alike (guardrails-native.ts). Under output guardrails the upstream's own answer (`native` result, native-event
 * parts) is not relayed: it would carry the text they change. An input block never reaches the upstream: it writes
 * its own usage row.
 */
export class TextGuardrails {
  constructor(
    private readonly guardrails: Guardrails,
    private readonly specs: readonly GuardrailSpec[],
    private readonly call: GuardrailCall,
    private readonly usage?: UsageLog,
  ) {}

  /**
   * Under output guardrails the inner call's usage row waits for them (`rowAfter`), so it carries their hits too; it
   * is written however the check ends.
   */
  async generate(request: TextRequest, next: (r: TextRequest, rowAfter?: Promise<void>) => Promise<TextResult>): Promise<TextResult> {
    const input = await this.input(request);
    if (!Guardrails.any(this.specs, 'output')) return next(input);
    let checked!: () => void;
    const rowAfter = new Promise<void>((resolve) => (checked = resolve));
    try {
      const { native: _, ...result } = await next(input, rowAfter);
      const texts = resultTexts(result.content);
      const out = await this.guardrails.check(this.specs, 'output', texts, this.call);
      return same(texts, out) ? result : { ...result, content: withResultTexts(result.content, out) };
    } finally {
      checked();
    }
  }

  async *stream(request: TextRequest, next: (r: TextRequest) => AsyncIterable<TextStreamPart>): AsyncGenerator<TextStreamPart> {
    const upstream = next(await this.input(request));
    const scanner = this.guardrails.streamScanner(this.specs, this.call);
    if (!scanner.active) {
      yield* upstream;
      return;
    }
    for await (const part of upstream) {
      if (part.type === 'native-event') continue;
      const r = part.type === 'finish' ? await scanner.end() : scanner.push(part);
      yield* r.parts;
      if (r.blocked) throw r.blocked;
      if (part.type === 'finish') yield part;
    }
  }

  /**
   * The request after the input guardrails: unchanged, or masked/modified (its native body rewritten alike, or
   * dropped where that cannot be done safely: guardrails-native.ts).
   */
  private async input(request: TextRequest): Promise<TextRequest> {
    if (!Guardrails.any(this.specs, 'input')) return request;
    const texts = requestTexts(request);
    let checked: string[];
    try {
      checked = await this.guardrails.check(this.specs, 'input', texts, this.call);
    } catch (e) {
      this.refused(e);
      throw e;
    }
    if (same(texts, checked)) return request;
    const masked = withoutNative(withRequestTexts(request, checked));
    const native = request.native && maskedNative(request.native, texts, checked);
    return native ? { ...masked, native } : masked;
  }

  /** A request refused before any upstream: its usage row says so, with the hits. */
  private refused(e: unknown): void {
    const { principal: p, requestId, format, model, hits } = this.call;
    const error = e as { code?: string; status?: number };
    if (!this.usage || !error.code?.startsWith('guardrail_')) return;
    this.usage.record({
      requestId,
      accountId: p.accountId,
      keyId: p.keyId,
      model,
      format,
      status: 'error',
      httpStatus: error.status ?? 400,
      errorCode: error.code,
      inputTokens: 0,
      outputTokens: 0,
      attempts: 0,
      guardrails: hits,
      ...(p.batchId ? { batchId: p.batchId } : {}),
    });
  }
}

function withoutNative(request: TextRequest): TextRequest {
  if (!request.native) return request;
  const { native: _, ...rest } = request;
  return rest;
}

const same = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((t, i) => t === b[i]);

/**
 * Every text the upstream would see, in this order (a webhook's `modify` replaces them by position): the system
 * prompt; then each message in order with its texts, tool-call arguments and tool results in part order; then each
 * tool definition's name, description and the strings of its parameters schema.
 */
export function requestTexts(request: TextRequest): string[] {
  const out: string[] = [];
  rewrite(request, (t) => {
    out.push(t);
    return t;
  });
  return out;
}

/** The request with its texts replaced, in requestTexts' order. */
export function withRequestTexts(request: TextRequest, texts: readonly string[]): TextRequest {
  let i = 0;
  return rewrite(request, (t) => texts[i++] ?? t);
}

function rewrite(request: TextRequest, f: (t: string) => string): TextRequest {
  const system = request.system === undefined ? undefined : f(request.system);
  const messages = request.messages.map((m) => rewriteMessage(m, f));
  const tools = request.tools?.map((t) => rewriteTool(t, f));
  return {
    ...request,
    ...(system === undefined ? {} : { system }),
    messages,
    ...(tools ? { tools } : {}),
  };
}

function rewriteMessage(m: Message, f: (t: string) => string): Message {
  switch (m.role) {
    case 'user':
      return { ...m, content: m.content.map((p) => (p.type === 'text' ? { ...p, text: f(p.text) } : p)) };
    case 'assistant':
      return {
        ...m,
        content: m.content.map((p) =>
          p.type === 'text' ? { ...p, text: f(p.text) } : p.type === 'tool-call' ? { ...p, arguments: f(p.arguments) } : p,
        ),
      };
    case 'tool':
      return {
        ...m,
        content: m.content.map((r) => ({ ...r, content: r.content.map((c) => (c.type === 'text' ? { ...c, text: f(c.text) } : c)) })),
      };
  }
}

function rewriteTool(t: ToolDefinition, f: (t: string) => string): ToolDefinition {
  const name = f(t.name);
  const description = t.description === undefined ? undefined : f(t.description);
  return { ...t, name, ...(description === undefined ? {} : { description }), parameters: rewriteValues(t.parameters, f) };
}

/** An answer's texts the output guardrails see: its text, reasoning and tool-call arguments, in order. */
function resultTexts(content: readonly AssistantContent[]): string[] {
  return content.map((p) => (p.type === 'tool-call' ? p.arguments : p.text));
}

function withResultTexts(content: readonly AssistantContent[], texts: readonly string[]): AssistantContent[] {
  return content.map((p, i) =>
    p.type === 'tool-call' ? { ...p, arguments: texts[i] ?? p.arguments } : { ...p, text: texts[i] ?? p.text },
  );
}
