import { num, time } from './bits';
import type { UsageRow } from '../usage-rows';

/** A task's usage events (creation, settlement, refund) with their credits: both task pages show them alike. */
export function TaskEvents({ events }: { events: UsageRow[] }) {
  return (
    <>
      <h2>Events</h2>
      <table aria-label="Events">
        <thead>
          <tr>
            <th>Time</th>
            <th>Status</th>
            <th>Credits</th>
            <th>Request id</th>
          </tr>
        </thead>
        <tbody>
          {events.map((r) => (
            <tr key={r.id}>
              <td>{time(r.created_at)}</td>
              <td>
                {r.status} {r.http_status}
              </td>
              <td>{num(r.credits, 4)}</td>
              <td>
                <code>{r.request_id}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
