/** One call to one upstream deployment, as routing saw it end (a failover shows as several). */
export interface UpstreamAttempt {
  provider: string;
  upstreamModel: string;
  /** 'ok', the failure's error code, or 'cancelled' when the caller went away */
  outcome: string;
  upstreamStatus?: number;
}

export interface BreakerTransition {
  provider: string;
  upstreamModel: string;
  from: string;
  to: string;
}

/** Where routing reports what operators need to see (metrics, warn logs); optional, never throws back. */
export interface RoutingObserver {
  attempt(a: UpstreamAttempt): void;
  breakerChanged(t: BreakerTransition): void;
}
