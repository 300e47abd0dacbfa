import { useState } from 'react';
import type { Session } from '../session';
import { ErrorNote, Field, NeedsCallKey } from '../components/bits';
import { useInterval, useLoad } from '../components/use-load';
import { TaskTable } from '../components/task-table';
import { contentPath, listTasks, TASK_STATUSES } from '../tasks-api';

/** The video tasks of the key's account, newest first, with a status filter; each row links to its task page. */
export function Tasks({ session }: { session: Session }) {
  const [status, setStatus] = useState('');
  const key = session.callKey;
  const tasks = useLoad(() => (key ? listTasks(key, status) : Promise.resolve({ total: 0, items: [] })), [key, status]);
  const active = (tasks.data?.items ?? []).some((t) => t.status === 'queued' || t.status === 'running');
  useInterval(tasks.reload, 2000, active);
  if (!key) return <NeedsCallKey />;
  return (
    <section>
      <h1>Tasks</h1>
      <Field label="Status">
        <select value={status} onChange={(e) => setStatus(e.target.value)}>
          <option value="">any</option>
          {TASK_STATUSES.map((s) => (
            <option key={s}>{s}</option>
          ))}
        </select>
      </Field>
      <ErrorNote error={tasks.error} />
      <p className="note">{tasks.data ? `${tasks.data.total} task(s)` : 'Loading…'}</p>
      <TaskTable tasks={tasks.data?.items ?? []} apiKey={key} posterPath={(id) => contentPath(id, 'thumbnail')} />
    </section>
  );
}
