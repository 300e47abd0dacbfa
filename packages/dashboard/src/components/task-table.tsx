import { Link } from '../router';
import { time } from './bits';
import { AuthedImage } from './authed-media';
import { DataTable } from './data-table';
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
    <DataTable
      label="Video tasks"
      rows={props.tasks}
      rowKey={(t) => t.id}
      columns={[
        [
          'Poster',
          (t) =>
            t.status === 'succeeded' ? <AuthedImage apiKey={props.apiKey} path={props.posterPath(t.id)} alt={`Poster of ${t.id}`} /> : null,
        ],
        ['Task', (t) => <Link to={`tasks/${encodeURIComponent(t.id)}`}>{t.id}</Link>],
        accountOf && ['Account', accountOf],
        ['Model', (t) => t.model],
        ['Status', (t) => t.status],
        ['Seconds', (t) => t.duration],
        [
          'Resolution',
          (t) => (
            <>
              {t.resolution} {t.ratio}
            </>
          ),
        ],
        ['Created', (t) => time(t.created_at)],
      ]}
    />
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
