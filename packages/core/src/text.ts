/** Canonical text generation model: independent of every wire format. */

import type { HostedMcpItem, HostedMcpRequest } from './hosted-mcp';
import type { HostedTool } from './hosted-tools';
import type { NativeAnswer, NativeEventPart, NativeRequest } from './native-request';
import type { ForwardedEventsPart } from './stream-forwarding';
import type { ModerationReport, TextModeration } from './text-moderation';
import type { Warning } from './warnings';

export interface TextPart {
  type: 'text';
  text: string;
}

/** An image given inline (base64) or by URL. */
export interface ImagePart {
  type: 'image';
  mediaType?: string;
  /** base64 without a data-URL prefix */
  data?: string;
  url?: string;
}

export interface ReasoningPart {
  type: 'reasoning';
  text: string;
  /** provider signature that must travel back unchanged (Anthropic thinking) */
  signature?: string;
}

export interface ToolCallPart {
  type: 'tool-call';
  id: string;
  name: string;
  /** JSON text of the arguments */
  arguments: string;
}

export interface ToolResultPart {
  type: 'tool-result';
  toolCallId: string;
  name?: string;
  content: Array<TextPart | ImagePart>;
  isError?: boolean;
}

export type UserContent = TextPart | ImagePart;
export type AssistantContent = TextPart | ReasoningPart | ToolCallPart;

export type Message =
  | { role: 'user'; content: UserContent[]; name?: string }
  | { role: 'assistant'; content: AssistantContent[] }
  | { role: 'tool'; content: ToolResultPart[] };

export interface ToolDefinition {
  name: string;
  description?: string;
  /** JSON schema of the arguments */
  parameters: Record<string, unknown>;
}

export type ToolChoice = 'auto' | 'none' | 'required' | { type: 'tool'; name: string };

export type ReasoningEffort = 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh' | 'max';

export interface TextRequest {
  model: string;
  system?: string;
  messages: Message[];
  tools?: ToolDefinition[];
  /** tools the provider runs itself, as the client declared them (hosted-tools.ts decides who gets them) */
  hostedTools?: HostedTool[];
  /** hosted MCP servers the client declared; the gateway runs those it has registered (use-cases/hosted-mcp.ts) */
  hostedMcp?: HostedMcpRequest;
  toolChoice?: ToolChoice;
  maxOutputTokens?: number;
  temperature?: number;
  topP?: number;
  topK?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  stopSequences?: string[];
  seed?: number;
  /** number of choices; canonical providers may only support 1 */
  n?: number;
  responseFormat?: { type: 'text' } | { type: 'json'; schema?: Record<string, unknown>; name?: string };
  reasoning?: { effort?: ReasoningEffort; budgetTokens?: number; includeThoughts?: boolean };
  user?: string;
  /** in-band moderation of the input and output (text-moderation.ts) */
  moderation?: TextModeration;
  /** the client's own body and dialect headers, for an upstream of the same dialect (native-request.ts) */
  native?: NativeRequest;
}

export type FinishReason = 'stop' | 'length' | 'tool-calls' | 'content-filter' | 'error' | 'other';

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  cachedInputTokens?: number;
  cacheCreationInputTokens?: number;
  reasoningTokens?: number;
}

export interface TextResult {
  id?: string;
  model: string;
  content: AssistantContent[];
  finishReason: FinishReason;
  /** the stop sequence that ended generation, when known */
  stopSequence?: string;
  usage: Usage;
  /** canonical features the upstream could not honour */
  warnings: Warning[];
  /** the upstream's own request id, for support tickets and logs */
  upstreamRequestId?: string;
  /** the upstream's own answer, when the request carried a `native` body of the upstream's format */
  native?: NativeAnswer;
  /** the in-band moderation's verdicts, when the request asked for it */
  moderation?: ModerationReport;
  /** what the gateway did with hosted MCP servers (tool listings, calls, approval requests), before `content` */
  hostedMcp?: HostedMcpItem[];
}

export type TextStreamPart =
  /**
   * The input side of the usage as the upstream counted it before generating (Anthropic's message_start);
   * comes at most once, before any content. Formats that announce input tokens up front read it; others skip it.
   */
  | { type: 'input-usage'; usage: Pick<Usage, 'inputTokens' | 'cachedInputTokens' | 'cacheCreationInputTokens'> }
  | { type: 'text-delta'; delta: string }
  | { type: 'reasoning-delta'; delta: string; signature?: string }
  | { type: 'tool-call-start'; index: number; id: string; name: string }
  | { type: 'tool-call-delta'; index: number; argumentsDelta: string }
  | {
      type: 'finish';
      finishReason: FinishReason;
      usage: Usage;
      stopSequence?: string;
      /** as TextResult.warnings: known before the first part, delivered here so a stream needs no extra part type */
      warnings?: Warning[];
      upstreamRequestId?: string;
      /** the in-band moderation's verdicts, when the request asked for it (a stream's text is moderated once whole) */
      moderation?: ModerationReport;
    }
  /** a hosted MCP step the gateway ran between model rounds (use-cases/hosted-mcp.ts); comes between other parts */
  | { type: 'hosted-mcp'; item: HostedMcpItem }
  /** an upstream event in the request's `native` format; other consumers skip it */
  | NativeEventPart
  /** upstream events relayed as they came, when the client's adapter offered it (stream-forwarding.ts) */
  | ForwardedEventsPart;

export function emptyUsage(): Usage {
  return { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
}

/** Concatenated text of a result's text parts. */
export function resultText(content: AssistantContent[]): string {
  return content
    .filter((p): p is TextPart => p.type === 'text')
    .map((p) => p.text)
    .join('');
}

/** Folds a stream into the result a non-streaming call would have returned. */
export async function collectStream(model: string, parts: AsyncIterable<TextStreamPart>): Promise<TextResult> {
  const content: AssistantContent[] = [];
  const calls = new Map<number, ToolCallPart>();
  const hostedMcp: HostedMcpItem[] = [];
  let finish: Extract<TextStreamPart, { type: 'finish' }> | undefined;
  const last = () => content[content.length - 1];
  for await (const part of parts) {
    switch (part.type) {
      case 'text-delta': {
        const l = last();
        if (l?.type === 'text') l.text += part.delta;
        else content.push({ type: 'text', text: part.delta });
        break;
      }
      case 'reasoning-delta': {
        const l = last();
        if (l?.type === 'reasoning') {
          l.text += part.delta;
          if (part.signature) l.signature = part.signature;
        } else content.push({ type: 'reasoning', text: part.delta, signature: part.signature });
        break;
      }
      case 'tool-call-start': {
        const call: ToolCallPart = { type: 'tool-call', id: part.id, name: part.name, arguments: '' };
        calls.set(part.index, call);
        content.push(call);
        break;
      }
      case 'tool-call-delta': {
        const call = calls.get(part.index);
        if (call) call.arguments += part.argumentsDelta;
        break;
      }
      case 'hosted-mcp':
        hostedMcp.push(part.item);
        break;
      case 'finish':
        finish = part;
        break;
    }
  }
  return {
    model,
    content,
    finishReason: finish?.finishReason ?? 'other',
    stopSequence: finish?.stopSequence,
    usage: finish?.usage ?? emptyUsage(),
    warnings: finish?.warnings ?? [],
    ...(finish?.upstreamRequestId ? { upstreamRequestId: finish.upstreamRequestId } : {}),
    ...(finish?.moderation ? { moderation: finish.moderation } : {}),
    ...(hostedMcp.length ? { hostedMcp } : {}),
  };
}
