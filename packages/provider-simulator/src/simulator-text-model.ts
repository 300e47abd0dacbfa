import {
  GatewayError,
  type AssistantContent,
  type CallContext,
  type FinishReason,
  type Message,
  type TextModelPort,
  type TextRequest,
  type TextResult,
  type TextStreamPart,
  type Usage,
} from '@gateway/provider-kit';
import { hash, sampleFromSchema } from './simulated-arguments';
import { mentionedTool } from './mentioned-tool';

export const FAIL_MARKER = '[sim:fail]';

/** What JSON mode without a schema answers with. */
const JSON_OBJECT = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] };

const WORDS = ['bright', 'quiet', 'river', 'signal', 'amber', 'orbit', 'lattice', 'meadow', 'vector', 'harbor', 'cobalt', 'ember'];

/** Whitespace-separated words stand in for tokens: deterministic and easy to check. */
export const countTokens = (text: string): number => (text.trim() ? text.trim().split(/\s+/).length : 0);

function messageText(m: Message): string {
  return m.content
    .map((p) =>
      p.type === 'text'
        ? p.text
        : p.type === 'tool-result'
          ? p.content.map((c) => (c.type === 'text' ? c.text : '[image]')).join(' ')
          : p.type === 'tool-call'
            ? p.arguments
            : p.type === 'reasoning'
              ? p.text
              : '[image]',
    )
    .join(' ');
}

/** The input tokens the simulator bills: the words of the system prompt and every message. */
const inputTokensOf = (req: TextRequest): number => countTokens([req.system ?? '', ...req.messages.map(messageText)].join(' '));

interface Plan {
  reasoning?: string;
  text: string;
  toolCall?: { id: string; name: string; arguments: string };
  finishReason: FinishReason;
  stopSequence?: string;
  usage: Usage;
}

/** Decides the whole answer up front, so streaming and non-streaming agree exactly. */
export function planAnswer(req: TextRequest): Plan {
  const last = req.messages[req.messages.length - 1];
  const lastText = last ? messageText(last) : '';
  if ([req.system ?? '', ...req.messages.map(messageText)].some((t) => t.includes(FAIL_MARKER))) {
    throw new GatewayError('upstream_error', `The simulator was asked to fail (${FAIL_MARKER} in the prompt).`, {
      code: 'simulated_failure',
    });
  }
  const inputTokens = inputTokensOf(req);
  const seed = JSON.stringify([req.system, req.messages, req.model]);

  const tools = req.tools ?? [];
  let tool = undefined as (typeof tools)[number] | undefined;
  if (last?.role !== 'tool' && tools.length && req.toolChoice !== 'none') {
    const choice = req.toolChoice;
    if (choice && typeof choice === 'object') tool = tools.find((t) => t.name === choice.name);
    else if (choice === 'required') tool = mentionedTool(lastText, tools) ?? tools[0];
    else tool = mentionedTool(lastText, tools);
  }

  let reasoning: string | undefined;
  if (req.reasoning && req.reasoning.effort !== 'none') {
    reasoning = `The user wrote ${countTokens(lastText)} words; I will answer briefly.`;
  }

  if (tool) {
    const args = JSON.stringify(sampleFromSchema(tool.parameters, `${lastText} ${tool.name}`));
    const outputTokens = countTokens(args) + (reasoning ? countTokens(reasoning) : 0);
    return {
      reasoning,
      text: '',
      toolCall: { id: `call_${hash(seed + tool.name).toString(36)}`, name: tool.name, arguments: args },
      finishReason: 'tool-calls',
      usage: usage(inputTokens, outputTokens, reasoning),
    };
  }

  let text: string;
  if (req.responseFormat?.type === 'json') {
    // structured output: JSON that validates against the schema given (or any object for plain JSON mode)
    text = JSON.stringify(sampleFromSchema(req.responseFormat.schema ?? JSON_OBJECT, `${lastText} ${req.responseFormat.name ?? ''}`));
  } else if (last?.role === 'tool') {
    const r = last.content[0];
    text = `The tool ${r?.name ?? r?.toolCallId ?? 'call'} returned: ${messageText(last)}`;
  } else {
    const echo = lastText.trim().split(/\s+/).slice(0, 12).join(' ');
    const h = hash(seed);
    const extra = Array.from({ length: 6 }, (_, i) => WORDS[(h >>> (i * 4)) % WORDS.length]).join(' ');
    text = `Simulated answer to "${echo}": ${extra}.`;
  }

  let finishReason: FinishReason = 'stop';
  let stopSequence: string | undefined;
  for (const s of req.stopSequences ?? []) {
    const at = s ? text.indexOf(s) : -1;
    if (at >= 0) {
      text = text.slice(0, at);
      stopSequence = s;
    }
  }
  const max = req.maxOutputTokens;
  if (max !== undefined && countTokens(text) > max) {
    text = text.trim().split(/\s+/).slice(0, max).join(' ');
    finishReason = 'length';
    stopSequence = undefined;
  }
  return {
    reasoning,
    text,
    finishReason,
    stopSequence,
    usage: usage(inputTokens, countTokens(text) + (reasoning ? countTokens(reasoning) : 0), reasoning),
  };
}

function usage(inputTokens: number, outputTokens: number, reasoning?: string): Usage {
  return {
    inputTokens,
    outputTokens,
    totalTokens: inputTokens + outputTokens,
    cachedInputTokens: 0,
    reasoningTokens: reasoning ? countTokens(reasoning) : 0,
  };
}

/** Splits text into chunks of a few words, keeping whitespace, so chunks concatenate to the text. */
export function chunkText(text: string, wordsPerChunk = 3): string[] {
  const pieces = text.match(/\S+\s*/g) ?? [];
  const out: string[] = [];
  for (let i = 0; i < pieces.length; i += wordsPerChunk) out.push(pieces.slice(i, i + wordsPerChunk).join(''));
  if (text && text.match(/^\s+/)) out[0] = text.match(/^\s+/)![0] + (out[0] ?? '');
  return out;
}

export class SimulatorTextModel implements TextModelPort {
  constructor(private readonly opts: { chunkDelayMs?: number } = {}) {}

  /** Counts exactly what a generation would report as input tokens. */
  async countTokens(req: TextRequest): Promise<number> {
    return inputTokensOf(req);
  }

  async generate(req: TextRequest): Promise<TextResult> {
    const plan = planAnswer(req);
    const content: AssistantContent[] = [];
    if (plan.reasoning) content.push({ type: 'reasoning', text: plan.reasoning, signature: 'sim-signature' });
    if (plan.text) content.push({ type: 'text', text: plan.text });
    if (plan.toolCall) content.push({ type: 'tool-call', ...plan.toolCall });
    return {
      id: `sim-${hash(JSON.stringify(req)).toString(36)}`,
      model: req.model,
      content,
      finishReason: plan.finishReason,
      stopSequence: plan.stopSequence,
      usage: plan.usage,
      warnings: [],
    };
  }

  async *stream(req: TextRequest, ctx: CallContext): AsyncGenerator<TextStreamPart> {
    const plan = planAnswer(req);
    const pause = async () => {
      if (this.opts.chunkDelayMs) await new Promise((r) => setTimeout(r, this.opts.chunkDelayMs));
      if (ctx.signal.aborted) throw new GatewayError('internal', 'Client went away.', { code: 'client_closed' });
    };
    if (plan.reasoning) {
      for (const c of chunkText(plan.reasoning)) {
        await pause();
        yield { type: 'reasoning-delta', delta: c };
      }
      yield { type: 'reasoning-delta', delta: '', signature: 'sim-signature' };
    }
    for (const c of chunkText(plan.text)) {
      await pause();
      yield { type: 'text-delta', delta: c };
    }
    if (plan.toolCall) {
      yield { type: 'tool-call-start', index: 0, id: plan.toolCall.id, name: plan.toolCall.name };
      const a = plan.toolCall.arguments;
      const mid = Math.ceil(a.length / 2);
      for (const piece of [a.slice(0, mid), a.slice(mid)]) {
        await pause();
        yield { type: 'tool-call-delta', index: 0, argumentsDelta: piece };
      }
    }
    yield { type: 'finish', finishReason: plan.finishReason, usage: plan.usage, stopSequence: plan.stopSequence };
  }
}
