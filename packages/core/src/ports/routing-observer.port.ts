/** The call an attempt belongs to, as the use case knows it (tracing hangs each attempt under its request). */
export interface AttemptCall {
  requestId: string;
  /** what kind of call: 'chat', 'generate_content', 'count_tokens' (GenAI operation names where one exists) */
  operation: string;
  /** the gateway's model id the caller asked for */
  model: string;
}

/** What a successful answer said about itself: ids, model, token counts, never content. */
export interface AttemptAnswer {
  responseId?: string;
  responseModel?: string;
  finishReasons?: string[];
  inputTokens?: number;
  outputTokens?: number;
}

/** One call to one upstream deployment, as routing saw it end (a failover shows as several). */
export interface UpstreamAttempt {
  provider: string;
  upstreamModel: string;
  /** 'ok', the failure's error code, or 'cancelled' when the caller went away */
  outcome: string;
  upstreamStatus?: number;
  /** an excerpt of the upstream's own error text (GatewayError.upstreamMessage), for logs */
  upstreamMessage?: string;
  /** how long the attempt ran, on the selection policy's clock */
  durationMs: number;
  call?: AttemptCall;
  answer?: AttemptAnswer;
}

export interface BreakerTransition {
  provider: string;
  upstreamModel: string;
  from: string;
  to: string;
}

/** Where routing reports what operators need to see (metrics, warn logs, traces); optional, never throws back. */
export interface RoutingObserver {
  attempt(a: UpstreamAttempt): void;
  breakerChanged(t: BreakerTransition): void;
}
