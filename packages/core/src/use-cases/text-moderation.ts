import type { Principal } from '../auth';
import { GatewayError, invalid } from '../errors';
import type { ModerationInput, ModerationVerdict } from '../moderation';
import { emptyUsage, resultText, type TextRequest, type TextResult, type TextStreamPart } from '../text';
import { passes, type ModerationOutcome, type ModerationReport, type TextModeration } from '../text-moderation';
import type { RoutedCallMeta } from './usage-record';

/** The gateway's own moderation model, as text calls use it (the composition root wires the Moderation use case). */
export interface TextModerator {
  /** The model's catalogue id when the principal may use it; else throws the GatewayError the client gets (404, 403). */
  resolve(principal: Principal, modelId: string): string;
  /** One verdict per item: a metered call of its own (usage row, budget), as `POST /v1/moderations` makes. */
  moderate(principal: Principal, modelId: string, items: ModerationInput[][], meta: RoutedCallMeta): Promise<ModerationVerdict[]>;
}

/** Where nothing can moderate: a request that needs the gateway's moderation is refused. */
export const NO_MODERATOR: TextModerator = Object.freeze({
  resolve(): string {
    throw invalid('moderation_unavailable', 'In-band moderation is not available on this gateway.', 'moderation');
  },
  moderate: () => Promise.reject(new Error('no moderator')),
});

const INPUT_BLOCKED: ModerationOutcome = Object.freeze({
  type: 'error',
  code: 'input_blocked',
  message: 'The input was flagged under the block policy, so no output was generated.',
});

/**
 * The in-band moderation of one text call whose upstream does not run it itself: the whole input is one moderated
 * item (scored once, whatever the failover), the whole output another. `score` adds the verdicts to the answer;
 * `block` withholds what is flagged: a flagged input is never sent upstream, a flagged output never reaches the
 * client (a stream's output is held back until it is moderated). When the moderation call itself fails, `score`
 * answers the failure in the report and `block` withholds (fails closed). A moderation model the key may not use
 * is the request's error, before the upstream is called.
 */
export class ModerationStep {
  private input?: Promise<ModerationOutcome>;
  private modelId?: string;

  constructor(
    private readonly moderator: TextModerator,
    private readonly principal: Principal,
    private readonly policy: TextModeration,
    private readonly request: TextRequest,
    private readonly meta: RoutedCallMeta,
  ) {}

  async generate(call: () => Promise<TextResult>): Promise<TextResult> {
    this.resolve();
    const input = await this.inputOutcome();
    if (this.policy.input === 'block' && !passes(input)) return withheld(this.request.model, { input, output: INPUT_BLOCKED });
    const result = await call();
    const output = await this.outcome([{ type: 'text', text: resultText(result.content) }]);
    const moderation = { input, output };
    if (this.policy.output === 'block' && !passes(output)) return { ...result, content: [], finishReason: 'content-filter', moderation };
    return { ...result, moderation };
  }

  async *stream(open: () => AsyncIterable<TextStreamPart>): AsyncGenerator<TextStreamPart> {
    this.resolve();
    const input = await this.inputOutcome();
    if (this.policy.input === 'block' && !passes(input)) {
      yield { type: 'finish', finishReason: 'content-filter', usage: emptyUsage(), moderation: { input, output: INPUT_BLOCKED } };
      return;
    }
    const hold = this.policy.output === 'block';
    const held: TextStreamPart[] = [];
    let text = '';
    for await (const part of open()) {
      if (part.type === 'text-delta') text += part.delta;
      if (part.type !== 'finish') {
        if (hold) held.push(part);
        else yield part;
        continue;
      }
      const output = await this.outcome([{ type: 'text', text }]);
      const moderation = { input, output };
      if (hold && !passes(output)) yield { ...part, finishReason: 'content-filter', moderation };
      else {
        yield* held;
        yield { ...part, moderation };
      }
      return;
    }
  }

  /** The moderation model, checked on first use only: an upstream that moderates itself may name one the gateway does not serve. */
  private resolve(): string {
    try {
      this.modelId ??= this.moderator.resolve(this.principal, this.policy.model);
      return this.modelId;
    } catch (e) {
      // the client named this model in `moderation`, not in `model`
      if (!(e instanceof GatewayError)) throw e;
      throw new GatewayError(e.reason, e.message, { code: e.code, param: 'moderation.model', subject: e.subject });
    }
  }

  private inputOutcome(): Promise<ModerationOutcome> {
    this.input ??= this.outcome(inputItem(this.request));
    return this.input;
  }

  private async outcome(item: ModerationInput[]): Promise<ModerationOutcome> {
    try {
      const model = this.resolve();
      const results = await this.moderator.moderate(this.principal, model, [item], this.meta);
      return { type: 'results', model, results };
    } catch (e) {
      if (this.meta.signal.aborted) throw e;
      return {
        type: 'error',
        code: e instanceof GatewayError ? e.code : 'moderation_failed',
        message: e instanceof GatewayError ? e.message : 'The moderation model could not be reached.',
      };
    }
  }
}

/** An answer whose content the policy withheld. */
function withheld(model: string, moderation: ModerationReport): TextResult {
  return { model, content: [], finishReason: 'content-filter', usage: emptyUsage(), warnings: [], moderation };
}

/** The whole input as one moderated item: the system prompt, every message's text and every image. */
function inputItem(request: TextRequest): ModerationInput[] {
  const texts: string[] = request.system ? [request.system] : [];
  const images: ModerationInput[] = [];
  const image = (p: { mediaType?: string; data?: string; url?: string }) => {
    const url = p.url ?? (p.data ? `data:${p.mediaType ?? 'image/png'};base64,${p.data}` : undefined);
    if (url) images.push({ type: 'image', url });
  };
  for (const m of request.messages)
    for (const part of m.content) {
      if (part.type === 'text') texts.push(part.text);
      else if (part.type === 'image') image(part);
      else if (part.type === 'tool-result')
        for (const c of part.content) {
          if (c.type === 'text') texts.push(c.text);
          else image(c);
        }
    }
  return [{ type: 'text', text: texts.join('\n\n') }, ...images];
}
