import { num, time } from './bits';
import { DataTable } from './data-table';
import type { UsageRow } from '../usage-rows';

/** A task's usage events (creation, settlement, refund) with their credits: both task pages show them alike. */
export function TaskEvents({ events }: { events: UsageRow[] }) {
  return (
    <>
      <h2>Events</h2>
      <DataTable
        label="Events"
        rows={events}
        rowKey={(r) => r.id}
        columns={[
          ['Time', (r) => time(r.created_at)],
          [
            'Status',
            (r) => (
              <>
                {r.status} {r.http_status}
              </>
            ),
          ],
          ['Credits', (r) => num(r.credits, 4)],
          ['Request id', (r) => <code>{r.request_id}</code>],
        ]}
      />
    </>
  );
}
