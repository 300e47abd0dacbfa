import { Link } from '../router';
import { time } from './bits';
import { AuthedImage } from './authed-media';
import type { TaskItem } from '../tasks-api';

/**
 * One task in a tasks table: its poster once it succeeded, its id linking to its page, model, status, seconds, size,
 * creation time; `account` adds that column (the platform admin's view of every account).
 */
export function TaskRow({
  task: t,
  apiKey,
  posterPath,
  account,
}: {
  task: TaskItem;
  apiKey: string;
  posterPath: string;
  account?: string;
}) {
  return (
    <tr>
      <td>{t.status === 'succeeded' ? <AuthedImage apiKey={apiKey} path={posterPath} alt={`Poster of ${t.id}`} /> : null}</td>
      <td>
        <Link to={`tasks/${encodeURIComponent(t.id)}`}>{t.id}</Link>
      </td>
      {account !== undefined && <td>{account}</td>}
      <td>{t.model}</td>
      <td>{t.status}</td>
      <td>{t.duration}</td>
      <td>
        {t.resolution} {t.ratio}
      </td>
      <td>{time(t.created_at)}</td>
    </tr>
  );
}
