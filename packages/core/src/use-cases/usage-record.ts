import { randomUUID } from 'node:crypto';
import type { Principal } from '../auth';
import type { ModelSpec } from '../catalogue';
import type { UsageRow } from '../ports/usage-log.port';
import { warningText, type Warning } from '../warnings';
import type { GuardrailHit } from '../guardrails/guardrail';

/** What a routed call's caller passes along: where it came from and when it went away. */
export interface RoutedCallMeta {
  format: string;
  requestId: string;
  signal: AbortSignal;
  /** the call's guardrail hits so far (guardrails.ts): the usage row carries them; set, the guardrails already ran */
  guardrailHits?: GuardrailHit[];
  /** the row is written once this settles: the output guardrails, which run after the call, add their hits first */
  rowAfter?: Promise<void>;
}

/** Writes a call's row when it is due: now, or once `rowAfter` settles (however it settles). */
export function writeWhenDue(meta: RoutedCallMeta, write: () => void): void {
  if (meta.rowAfter) void meta.rowAfter.then(write, write);
  else write();
}

/** The token counts and units a usage row shows, in the row's own terms (each kind maps its usage to them). */
export type RowTokens = Pick<
  UsageRow,
  | 'inputTokens'
  | 'outputTokens'
  | 'cachedTokens'
  | 'cacheWriteTokens'
  | 'reasoningTokens'
  | 'characters'
  | 'audioSeconds'
  | 'searchUnits'
  | 'estimated'
>;

/** How a call ended, as its usage row says it. */
export interface CallOutcome {
  status: string;
  httpStatus: number;
  errorCode?: string;
}

/**
 * The usage-row object of a routed call (text or images): filled in as the call goes, written once when it
 * ends. Until an outcome is set the call counts as abandoned by its caller (499).
 */
export class UsageRecord {
  /** the row's id (a priced stream's pending row and its final row share it; a charge names it, so it applies once) */
  readonly rowId = randomUUID();
  attempts = 0;
  provider: string | null = null;
  outcome: CallOutcome = { status: 'cancelled', httpStatus: 499 };
  tokens: RowTokens = {};
  warnings: Warning[] = [];
  credits?: number;
  /** credits settled on the request path that the store refused: charged with the usage row */
  charge?: number;
  /** the provider's request id of the call that answered (or failed last) */
  upstreamRequestId?: string;
  private ttftMs: number | null = null;
  private readonly started: number;

  constructor(
    readonly principal: Principal,
    readonly model: ModelSpec,
    readonly meta: RoutedCallMeta,
    private readonly now: () => number,
  ) {
    this.started = now();
  }

  /** A part reached the caller: the first one sets the time to first token. */
  delivered(): void {
    this.ttftMs ??= this.now() - this.started;
  }

  toRow(): UsageRow {
    const p = this.principal;
    return {
      rowId: this.rowId,
      requestId: this.meta.requestId,
      accountId: p.accountId,
      keyId: p.keyId,
      model: this.model.id,
      format: this.meta.format,
      status: this.outcome.status,
      httpStatus: this.outcome.httpStatus,
      errorCode: this.outcome.errorCode ?? null,
      ...this.tokens,
      latencyMs: this.now() - this.started,
      ttftMs: this.ttftMs,
      provider: this.provider,
      attempts: this.attempts,
      warnings: this.warnings.map(warningText),
      credits: this.credits,
      ...(this.charge ? { charge: this.charge } : {}),
      upstreamRequestId: this.upstreamRequestId ?? null,
      ...(p.batchId ? { batchId: p.batchId } : {}),
      ...(this.meta.guardrailHits?.length ? { guardrails: [...this.meta.guardrailHits] } : {}),
    };
  }
}
