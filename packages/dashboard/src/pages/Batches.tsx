import { useState } from 'react';
import type { Session } from '../session';
import { call, download } from '../api';
import { ErrorNote, NeedsCallKey, time } from '../components/bits';
import { DataTable } from '../components/data-table';
import { useInterval, useLoad } from '../components/use-load';
import { listBatches } from '../batches-api';
import type { BatchRow } from '../batch-rows';

/** Progress as words and a bar: lines done of the total, and how many of them failed. */
function Progress({ b }: { b: BatchRow }) {
  return (
    <>
      <progress max={b.total || 1} value={b.done} aria-label={`Progress of ${b.id}`} />{' '}
      <span>
        {b.done}/{b.total} done{b.failed ? `, ${b.failed} failed` : ''}
      </span>
    </>
  );
}

/**
 * The batches of the key's account (OpenAI's and Anthropic's), newest first, polled while one runs. A file cannot be a
 * plain link, which could not carry the key: it is fetched with the key and saved from a blob.
 */
export function Batches({ session }: { session: Session }) {
  // a sign-on session of an account reads the lists and files itself (the routes declare it); a key otherwise
  const key = session.callKey ?? (session.sso && session.role === 'account' ? session.key : null);
  const batches = useLoad(() => (key ? listBatches(key) : Promise.resolve([])), [key]);
  const [saveError, setSaveError] = useState<string | null>(null);
  useInterval(
    batches.reload,
    2000,
    (batches.data ?? []).some((b) => b.active),
  );
  if (!key) return <NeedsCallKey />;
  const save = (path: string, filename: string) => {
    setSaveError(null);
    call(key, path).then(
      (res) => download(res, filename),
      (e: Error) => setSaveError(e.message),
    );
  };
  return (
    <section>
      <h1>Batches</h1>
      <ErrorNote error={batches.error ?? saveError} />
      <p className="note">{batches.data ? `${batches.data.length} batch(es)` : 'Loading…'}</p>
      <DataTable
        label="Batches"
        rows={batches.data}
        rowKey={(b) => b.id}
        columns={[
          ['Batch', (b) => b.id],
          ['Format', (b) => b.format],
          ['Status', (b) => b.status],
          ['Progress', (b) => <Progress b={b} />],
          ['Created', (b) => time(b.createdAt)],
          [
            'Files',
            (b) =>
              b.downloads.map((d) => (
                <button key={d.label} type="button" onClick={() => save(d.path, d.filename)} aria-label={`${d.label} of ${b.id}`}>
                  {d.label}
                </button>
              )),
          ],
        ]}
      />
    </section>
  );
}
