/** Where request lines and upstream warnings go: the gateway's logger (winston), or a test's. */
export interface ObservabilityLogger {
  info(message: string, meta: Record<string, unknown>): unknown;
  warn(message: string, meta: Record<string, unknown>): unknown;
  error(message: string, meta: Record<string, unknown>): unknown;
}
