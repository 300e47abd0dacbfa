import { useState } from 'react';
import type { Session } from '../session';
import { ErrorNote, NeedsCallKey, num, time } from '../components/bits';
import { AuthedVideo, useObjectUrl } from '../components/authed-media';
import { useInterval, useLoad } from '../components/use-load';
import { cancelOrDelete, contentPath, FINISHED, readTask, readVideo } from '../tasks-api';
import { usageRows } from '../usage-rows';
import { TaskEvents } from '../components/task-events';
import { TaskErrorFact } from '../components/task-table';
import { navigate } from '../router';

/** One task: the video (once completed), its poster, parameters, cost and usage events; cancel or delete. */
export function TaskPage({ session, id }: { session: Session; id: string }) {
  const key = session.callKey;
  const [actionError, setActionError] = useState<string | null>(null);
  const task = useLoad(
    () =>
      key
        ? Promise.all([readVideo(key, id), readTask(key, id), usageRows({ ...session, role: 'account', key }, { task: id }, 100)])
        : Promise.resolve(null),
    [key, id],
  );
  const [video, item, events] = task.data ?? [];
  const done = !!item && FINISHED.has(item.status);
  useInterval(task.reload, 1500, !!item && !done);
  const poster = useObjectUrl(key, item?.status === 'succeeded' ? contentPath(id, 'thumbnail') : null);
  if (!key) return <NeedsCallKey />;
  // never rejects: a failure is shown on the page, so its event handler drops the promise (void)
  const act = async () => {
    setActionError(null);
    try {
      await cancelOrDelete(key, id);
      if (done) navigate('tasks');
      else task.reload();
    } catch (e) {
      setActionError((e as Error).message);
    }
  };
  const cost = (events ?? []).reduce((s, r) => s + (r.credits ?? 0), 0);
  return (
    <section>
      <h1>Task {id}</h1>
      <ErrorNote error={task.error ?? actionError} />
      {video && item && (
        <>
          <p>
            Status: <b data-testid="task-status">{item.status}</b> · progress{' '}
            <progress max={100} value={video.progress} aria-label="Progress" /> {video.progress}%
          </p>
          {item.status === 'succeeded' && <AuthedVideo apiKey={key} path={contentPath(id)} poster={poster.url} label={`Video of ${id}`} />}
          {poster.url && <img src={poster.url} alt="Poster" className="thumb" />}
          <dl className="params">
            <dt>Model</dt>
            <dd>{item.model}</dd>
            <dt>Prompt</dt>
            <dd>{video.prompt ?? '—'}</dd>
            <dt>Seconds</dt>
            <dd data-testid="task-seconds">{video.seconds}</dd>
            <dt>Size</dt>
            <dd>
              {video.size} ({item.resolution}, {item.ratio}, {item.framespersecond} fps{item.generate_audio ? ', audio' : ''})
            </dd>
            <dt>Created</dt>
            <dd>{time(item.created_at)}</dd>
            <dt>Completed</dt>
            <dd>{time(video.completed_at)}</dd>
            <dt>Cost (credits)</dt>
            <dd>{num(cost, 4)}</dd>
            <TaskErrorFact error={item.error} />
          </dl>
          <button type="button" className="danger" onClick={() => void act()}>
            {done ? 'Delete' : 'Cancel'}
          </button>
          <TaskEvents events={events ?? []} />
        </>
      )}
    </section>
  );
}
