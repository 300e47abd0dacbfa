import type { Deployment } from '../catalogue';
import type { AttemptAnswer } from '../ports/routing-observer.port';
import type { TextModelPort } from '../ports/text-model.port';
import type { TextRequest, TextResult, TextStreamPart, Usage } from '../text';
import { estimateInputTokens, estimateTextTokens } from '../token-estimate';
import type { DeploymentAttempt } from './deployment-selection';
import { textCost } from '../pricing';
import type { CallEnd, CallPlan } from './routed-call';
import type { RowTokens, UsageRecord } from './usage-record';
import type { Warning } from '../warnings';
import { accountResourcesFor, DEFAULT_ACCOUNT_RESOURCES_POLICY } from '../account-resources';
import { DEFAULT_HOSTED_TOOLS_POLICY, hostedToolsFor } from '../hosted-tools';
import { nativeBody } from '../native-request';
import type { ModerationStep } from './text-moderation';
import type { ProviderLookup, TextCallMeta, TextGenerationDeps } from './text-generation';

type Attempt = DeploymentAttempt<TextModelPort>;
/** the upstream's result, and every warning of the call (the request's for this deployment, then the result's) */
type TextAnswer = { result: TextResult; warnings: Warning[] };

/** One text call on the routed path: its request per deployment, what it delivered, and what it is charged. */
export class TextCall implements CallPlan<TextModelPort, TextAnswer, TextStreamPart> {
  readonly operation = 'chat';
  private usage?: Usage;
  private finishReason?: string;
  /** the warnings known before the first part, of the deployment last opened */
  private before: Warning[] = [];
  private announcedInput?: number;
  private delivered = '';

  constructor(
    private readonly deps: TextGenerationDeps,
    readonly record: UsageRecord,
    private readonly request: TextRequest,
    private readonly meta: TextCallMeta,
    private readonly moderation?: ModerationStep,
  ) {}

  async admit(): Promise<void> {
    await this.deps.billing?.precheck(this.record.principal);
  }

  async call(a: Attempt): Promise<TextAnswer> {
    const upstream = upstreamRequest(this.deps.providers, this.request, a);
    const generate = () => a.port.generate(upstream.request, this.meta);
    const result = await (this.moderation && !a.port.moderatesInBand ? this.moderation.generate(generate) : generate());
    return { result, warnings: [...upstream.warnings, ...result.warnings] };
  }

  keepAnswer({ result, warnings }: TextAnswer): AttemptAnswer {
    this.counted(result.usage);
    this.record.upstreamRequestId = result.upstreamRequestId;
    this.record.warnings = warnings;
    return answerOf(result.usage, result.finishReason, result.id, result.model);
  }

  open(a: Attempt): AsyncIterator<TextStreamPart> {
    const prepared = upstreamRequest(this.deps.providers, this.request, a);
    this.before = prepared.warnings;
    const open = () => a.port.stream(prepared.request, this.meta);
    return (this.moderation && !a.port.moderatesInBand ? this.moderation.stream(open) : open())[Symbol.asyncIterator]();
  }

  committed(): void {
    this.record.warnings = this.before;
    if (this.before.length) this.meta.onWarnings?.(this.before);
    this.admitPriced();
  }

  notePart(part: TextStreamPart): void {
    this.record.delivered();
    if (part.type === 'finish') {
      this.counted(part.usage);
      this.finishReason = part.finishReason;
      this.record.warnings = [...this.before, ...(part.warnings ?? [])];
      this.record.upstreamRequestId = part.upstreamRequestId;
    }
    if (part.type === 'input-usage') this.announcedInput = part.usage.inputTokens;
    if (part.type === 'text-delta' || part.type === 'reasoning-delta') this.delivered += part.delta;
    if (part.type === 'forwarded-events') this.delivered += part.generated;
  }

  /**
   * What was delivered is charged: the upstream's usage if it came, else its input count (or the estimate) and the
   * delivered text estimated.
   */
  cutShort(): void {
    if (this.usage) return;
    const inputTokens = this.announcedInput ?? estimateInputTokens(this.request);
    const outputTokens = estimateTextTokens(this.delivered);
    this.counted({ inputTokens, outputTokens, totalTokens: inputTokens + outputTokens });
  }

  streamAnswer(): AttemptAnswer {
    return answerOf(this.usage, this.finishReason);
  }

  /**
   * Charges what the call cost (nothing for unpriced models, so the hot path stays free of writes), once per usage
   * row. A charge the store refused is not lost and not thrown at a caller who got the answer: it is reported and
   * goes with the usage row (`charge`), which charges it when written. A failed call is not charged.
   */
  async settle(end: CallEnd): Promise<number | undefined> {
    if (end === 'error' || !this.usage) return undefined;
    const { principal: p, meta } = this.record;
    const credits = textCost(this.record.model, this.usage);
    if (credits <= 0 || !this.deps.billing) return credits;
    try {
      await this.deps.billing.settle(p, credits, 'text', { requestId: meta.requestId, usageRowId: this.record.rowId });
    } catch (error) {
      this.record.charge = credits;
      this.deps.onSettleFailure?.({ requestId: meta.requestId, accountId: p.accountId, credits, error });
    }
    return credits;
  }

  /**
   * A priced stream is recorded durably before its first byte (status `pending`, the input estimated and charged):
   * if the process dies before the stream ends, recovery writes that row and charges it (usage-log.port.ts).
   */
  private admitPriced(): void {
    const { model, principal: p, meta } = this.record;
    if (!this.deps.usage.pending || !model.pricing) return;
    const inputTokens = estimateInputTokens(this.request);
    const credits = textCost(model, { inputTokens, outputTokens: 0, totalTokens: inputTokens });
    this.deps.usage.pending({
      rowId: this.record.rowId,
      requestId: meta.requestId,
      accountId: p.accountId,
      keyId: p.keyId,
      model: model.id,
      format: meta.format,
      status: 'pending',
      httpStatus: 200,
      inputTokens,
      outputTokens: 0,
      provider: this.record.provider,
      attempts: this.record.attempts,
      credits,
      charge: credits,
    });
  }

  private counted(usage: Usage): void {
    this.usage = usage;
    this.record.tokens = rowTokens(usage);
  }
}

/**
 * The request as one deployment gets it: its model name, only the hosted tools its upstream runs, and the in-band
 * moderation only when its upstream runs it (else the gateway does: text-moderation.ts).
 */
export function upstreamRequest(
  providers: ProviderLookup,
  request: TextRequest,
  a: Attempt,
): { request: TextRequest; warnings: Warning[] } {
  const d: Deployment = a.deployment;
  const policy = providers.hostedToolsPolicy?.(d.provider) ?? DEFAULT_HOSTED_TOOLS_POLICY;
  const hosted = hostedToolsFor(withoutModeration(request, a.port), a.port.hostedToolFormats, policy);
  const resourcesPolicy = providers.accountResourcesPolicy?.(d.provider) ?? DEFAULT_ACCOUNT_RESOURCES_POLICY;
  const safe = accountResourcesFor(hosted.request, resourcesPolicy);
  return {
    request: { ...safe.request, model: d.upstreamModel },
    warnings: [...hosted.warnings, ...safe.warnings],
  };
}

function withoutModeration(request: TextRequest, port: TextModelPort): TextRequest {
  if (!request.moderation || port.moderatesInBand) return request;
  const { moderation: _, ...rest } = request;
  return rest.native && 'moderation' in rest.native.body
    ? { ...rest, native: { ...rest.native, body: nativeBody(rest.native, { moderation: undefined }) } }
    : rest;
}

function rowTokens(usage: Usage): RowTokens {
  return {
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    cachedTokens: usage.cachedInputTokens,
    cacheWriteTokens: usage.cacheCreationInputTokens,
    reasoningTokens: usage.reasoningTokens,
  };
}

/** What an answer says about itself for the observer (traces): counts and ids, never content. */
function answerOf(usage: Usage | undefined, finishReason?: string, responseId?: string, responseModel?: string): AttemptAnswer {
  return {
    responseId,
    responseModel,
    finishReasons: finishReason ? [finishReason] : undefined,
    inputTokens: usage?.inputTokens,
    outputTokens: usage?.outputTokens,
  };
}
