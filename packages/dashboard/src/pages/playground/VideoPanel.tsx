import { useCallback, useState, type FormEvent } from 'react';
import { ErrorNote, Field, ModelSelect } from '../../components/bits';
import { useInterval } from '../../components/use-load';
import { Link } from '../../router';
import { createVideo, FINISHED, readVideo, type VideoObject } from '../../tasks-api';

/** Creates a video (POST /v1/videos) and follows it by polling until it finishes, then links to its task page. */
export function VideoPanel(props: { apiKey: string; models: string[] }) {
  const [model, setModel] = useState('');
  const [prompt, setPrompt] = useState('');
  const [seconds, setSeconds] = useState('4');
  const [video, setVideo] = useState<VideoObject | null>(null);
  const [error, setError] = useState<string | null>(null);
  const create = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    try {
      setVideo(await createVideo(props.apiKey, { model: model || props.models[0] || '', prompt, seconds }));
    } catch (err) {
      setError((err as Error).message);
    }
  };
  const poll = useCallback(() => {
    if (video) readVideo(props.apiKey, video.id).then(setVideo, (e: Error) => setError(e.message));
  }, [props.apiKey, video]);
  useInterval(poll, 1500, !!video && !FINISHED.has(video.status));
  return (
    <form className="panel" onSubmit={create} aria-label="Video">
      <h2>Video</h2>
      <ModelSelect label="Video model" models={props.models} value={model} onChange={setModel} />
      <Field label="Video prompt">
        <input value={prompt} onChange={(e) => setPrompt(e.target.value)} required />
      </Field>
      <Field label="Seconds">
        <select value={seconds} onChange={(e) => setSeconds(e.target.value)}>
          {['4', '8', '12'].map((s) => (
            <option key={s}>{s}</option>
          ))}
        </select>
      </Field>
      <button type="submit" disabled={!prompt.trim() || (!!video && !FINISHED.has(video.status))}>
        Create video
      </button>
      {video && (
        <div role="status" aria-label="Video task">
          <p>
            <Link to={`tasks/${encodeURIComponent(video.id)}`}>{video.id}</Link>: <span data-testid="video-status">{video.status}</span>
          </p>
          <progress max={100} value={video.progress} aria-label="Video progress" /> {video.progress}%
          {video.error && <p className="error">{video.error.message}</p>}
        </div>
      )}
      <ErrorNote error={error} />
    </form>
  );
}
