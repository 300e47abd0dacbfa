import client from 'prom-client';

/** gateway_usage_rows_pending: rows answered but not yet in the database (buffered, or waiting in the spool). */
export function usagePendingGauge(usage: { pendingRows(): number }): (registry: client.Registry) => void {
  return (registry) =>
    new client.Gauge({
      name: 'gateway_usage_rows_pending',
      help: 'Usage rows not yet written to the database (buffered, or waiting in the spool after a failed write)',
      registers: [registry],
      collect() {
        this.set(usage.pendingRows());
      },
    });
}
