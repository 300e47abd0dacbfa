import type { Principal } from '../auth';
import { toGatewayError } from '../errors';
import type { ModelSpec } from '../catalogue';
import { textCost } from '../pricing';
import type { Usage } from '../text';
import type { Billing } from './billing';
import { UsageRecord, writeWhenDue, type RoutedCallMeta } from './usage-record';
import type { UsageLog } from '../ports/usage-log.port';

const round = (n: number) => Math.round(n * 1e6) / 1e6;

/**
 * The usage row of an answer served from the response cache: the stored answer's token counts, no provider and no
 * attempt, marked `cacheHit`, priced at `pricing.cacheHitMultiplier` times the normal price (default 0: free).
 */
export class HitUsage {
  private readonly record: UsageRecord;

  constructor(
    private readonly deps: { usage: UsageLog; billing?: Billing; now?: () => number },
    principal: Principal,
    model: ModelSpec,
    meta: RoutedCallMeta,
  ) {
    this.record = new UsageRecord(principal, model, meta, deps.now ?? Date.now);
  }

  /** A priced hit is refused like a live call when the caller has no credits left, and writes its error row as one does. */
  async admit(): Promise<void> {
    if ((this.record.model.pricing?.cacheHitMultiplier ?? 0) <= 0) return;
    try {
      await this.deps.billing?.precheck(this.record.principal);
    } catch (e) {
      const err = toGatewayError(e);
      this.record.outcome = { status: 'error', httpStatus: err.status, errorCode: err.code };
      writeWhenDue(this.record.meta, () => this.deps.usage.record({ ...this.record.toRow(), cacheHit: true }));
      throw err;
    }
  }

  /** A part reached the caller (the first sets the time to first token). */
  delivered(): void {
    this.record.delivered();
  }

  /** Writes the row: ok and charged once the whole answer went, else the caller left (499) and nothing is charged. */
  async write(usage: Usage | undefined, complete: boolean): Promise<void> {
    const { record } = this;
    if (usage)
      record.tokens = {
        inputTokens: usage.inputTokens,
        outputTokens: usage.outputTokens,
        cachedTokens: usage.cachedInputTokens,
        reasoningTokens: usage.reasoningTokens,
      };
    if (complete) {
      record.outcome = { status: 'ok', httpStatus: 200 };
      record.credits = usage ? await this.charge(usage) : 0;
    }
    writeWhenDue(record.meta, () => this.deps.usage.record({ ...record.toRow(), cacheHit: true }));
  }

  private async charge(usage: Usage): Promise<number> {
    const { model, principal: p, meta } = this.record;
    const credits = round(textCost(model, usage) * (model.pricing?.cacheHitMultiplier ?? 0));
    if (credits <= 0 || !this.deps.billing) return credits;
    try {
      await this.deps.billing.settle(p, credits, 'text', { requestId: meta.requestId, usageRowId: this.record.rowId });
    } catch {
      this.record.charge = credits; // charged with the usage row instead (usage-log.port.ts `charge`)
    }
    return credits;
  }
}
