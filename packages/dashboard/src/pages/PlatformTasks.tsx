import { useState } from 'react';
import { getJson } from '../api';
import type { Session } from '../session';
import { ErrorNote, Field, num, time } from '../components/bits';
import { AuthedVideo, useObjectUrl } from '../components/authed-media';
import { useInterval, useLoad } from '../components/use-load';
import { adminContentPath, FINISHED, listAllTasks, readAnyTask, TASK_STATUSES } from '../tasks-api';
import { usageRows } from '../usage-rows';
import { TaskEvents } from '../components/task-events';
import { TaskErrorFact, TaskTable } from '../components/task-table';

/**
 * The platform admin's view of every account's video tasks (GET /admin/tasks), read only: the admin key, or a platform
 * admin's sign-on session, is the credential (`session.key`); no account key is needed.
 */
export function PlatformTasks({ session }: { session: Session }) {
  const [status, setStatus] = useState('');
  const [account, setAccount] = useState('');
  // the cursors of the pages walked so far: [] is the newest page
  const [cursors, setCursors] = useState<string[]>([]);
  const after = cursors.at(-1);
  const accounts = useLoad(() => getJson<{ data: Array<{ id: string }> }>(session.key, '/admin/accounts'), [session.key]);
  const tasks = useLoad(() => listAllTasks(session.key, { status, account, after }), [session.key, status, account, after]);
  const items = tasks.data?.data ?? [];
  useInterval(
    tasks.reload,
    2000,
    items.some((t) => !FINISHED.has(t.status)),
  );
  const filter = (set: (v: string) => void) => (e: { target: { value: string } }) => {
    set(e.target.value);
    setCursors([]);
  };
  return (
    <section>
      <h1>Tasks</h1>
      <p className="note">Every account&apos;s video tasks, newest first.</p>
      <Field label="Account">
        <select value={account} onChange={filter(setAccount)}>
          <option value="">any</option>
          {(accounts.data?.data ?? []).map((a) => (
            <option key={a.id}>{a.id}</option>
          ))}
        </select>
      </Field>
      <Field label="Status">
        <select value={status} onChange={filter(setStatus)}>
          <option value="">any</option>
          {TASK_STATUSES.map((s) => (
            <option key={s}>{s}</option>
          ))}
        </select>
      </Field>
      <ErrorNote error={tasks.error ?? accounts.error} />
      <p className="note">{tasks.data ? `${items.length} task(s) on this page` : 'Loading…'}</p>
      <TaskTable
        tasks={items}
        apiKey={session.key}
        posterPath={(taskId) => adminContentPath(taskId, 'thumbnail')}
        accountOf={(t) => t.account}
      />
      {cursors.length > 0 && (
        <button type="button" onClick={() => setCursors([])}>
          Newest
        </button>
      )}
      {tasks.data?.has_more && tasks.data.last_id && (
        <button type="button" onClick={() => setCursors([...cursors, tasks.data!.last_id!])}>
          Older
        </button>
      )}
    </section>
  );
}

/** One task of any account: its video and poster, parameters, cost and usage events. Read only. */
export function PlatformTaskPage({ session, id }: { session: Session; id: string }) {
  const task = useLoad(() => Promise.all([readAnyTask(session.key, id), usageRows(session, { task: id }, 100)]), [session.key, id]);
  const [item, events] = task.data ?? [];
  useInterval(task.reload, 1500, !!item && !FINISHED.has(item.status));
  const succeeded = item?.status === 'succeeded';
  const poster = useObjectUrl(session.key, succeeded ? adminContentPath(id, 'thumbnail') : null);
  const cost = (events ?? []).reduce((s, r) => s + (r.credits ?? 0), 0);
  return (
    <section>
      <h1>Task {id}</h1>
      <ErrorNote error={task.error} />
      {item && (
        <>
          <p>
            Status: <b data-testid="task-status">{item.status}</b> · account <b data-testid="task-account">{item.account}</b>
          </p>
          {succeeded && <AuthedVideo apiKey={session.key} path={adminContentPath(id)} poster={poster.url} label={`Video of ${id}`} />}
          {poster.url && <img src={poster.url} alt="Poster" className="thumb" />}
          <dl className="params">
            <dt>Model</dt>
            <dd>{item.model}</dd>
            <dt>Key</dt>
            <dd>
              <code>{item.key_id}</code>
            </dd>
            <dt>Seconds</dt>
            <dd data-testid="task-seconds">{item.duration}</dd>
            <dt>Size</dt>
            <dd>
              {item.resolution}, {item.ratio}, {item.framespersecond} fps{item.generate_audio ? ', audio' : ''}
            </dd>
            <dt>Created</dt>
            <dd>{time(item.created_at)}</dd>
            <dt>Updated</dt>
            <dd>{time(item.updated_at)}</dd>
            <dt>Cost (credits)</dt>
            <dd>{num(cost, 4)}</dd>
            <TaskErrorFact error={item.error} />
          </dl>
          <TaskEvents events={events ?? []} />
        </>
      )}
    </section>
  );
}
