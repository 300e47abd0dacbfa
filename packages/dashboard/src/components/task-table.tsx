import { Link } from '../router';
import { time } from './bits';
import { AuthedImage } from './authed-media';
import type { TaskItem } from '../tasks-api';

/**
 * A tasks table: each task's poster once it succeeded, its id linking to its page, model, status, seconds, size and
 * creation time; `accountOf` adds an Account column (the platform admin's view of every account).
 */
export function TaskTable<T extends TaskItem>(props: {
  tasks: T[];
  apiKey: string;
  posterPath: (id: string) => string;
  accountOf?: (task: T) => string;
}) {
  const { accountOf } = props;
  return (
    <table aria-label="Video tasks">
      <thead>
        <tr>
          <th>Poster</th>
          <th>Task</th>
          {accountOf && <th>Account</th>}
          <th>Model</th>
          <th>Status</th>
          <th>Seconds</th>
          <th>Resolution</th>
          <th>Created</th>
        </tr>
      </thead>
      <tbody>
        {props.tasks.map((t) => (
          <tr key={t.id}>
            <td>
              {t.status === 'succeeded' ? (
                <AuthedImage apiKey={props.apiKey} path={props.posterPath(t.id)} alt={`Poster of ${t.id}`} />
              ) : null}
            </td>
            <td>
              <Link to={`tasks/${encodeURIComponent(t.id)}`}>{t.id}</Link>
            </td>
            {accountOf && <td>{accountOf(t)}</td>}
            <td>{t.model}</td>
            <td>{t.status}</td>
            <td>{t.duration}</td>
            <td>
              {t.resolution} {t.ratio}
            </td>
            <td>{time(t.created_at)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A failed task's error, as two rows of a task page's parameter list. */
export function TaskErrorFact({ error }: { error: TaskItem['error'] }) {
  if (!error) return null;
  return (
    <>
      <dt>Error</dt>
      <dd>
        {error.code}: {error.message}
      </dd>
    </>
  );
}
