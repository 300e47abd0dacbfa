import { useState, type FormEvent } from 'react';
import { sendJson } from '../../api';
import { ErrorNote, Field, ModelSelect } from '../../components/bits';

/** Images come back as base64 (`response_format: b64_json`) and show as data: thumbnails; nothing needs a second call. */
export function ImagePanel(props: { apiKey: string; models: string[] }) {
  const [model, setModel] = useState('');
  const [prompt, setPrompt] = useState('');
  const [images, setImages] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // never rejects: a failure is shown on the page, so its event handler drops the promise (void)
  const generate = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const res = await sendJson<{ data: Array<{ b64_json?: string }>; output_format?: string }>(
        props.apiKey,
        'POST',
        '/v1/images/generations',
        {
          model: model || props.models[0],
          prompt,
          n: 1,
          response_format: 'b64_json',
        },
      );
      const type = `image/${res.output_format ?? 'png'}`;
      setImages((prev) => [...res.data.filter((d) => d.b64_json).map((d) => `data:${type};base64,${d.b64_json}`), ...prev].slice(0, 12));
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="panel" onSubmit={(e) => void generate(e)} aria-label="Image">
      <h2>Image</h2>
      <ModelSelect label="Image model" models={props.models} value={model} onChange={setModel} />
      <Field label="Image prompt">
        <input value={prompt} onChange={(e) => setPrompt(e.target.value)} required />
      </Field>
      <button type="submit" disabled={busy || !prompt.trim()}>
        Generate image
      </button>
      <div className="thumbs">
        {images.map((src, i) => (
          <a key={src.slice(-32) + i} href={src} download={`image-${i}.png`}>
            <img src={src} alt={`Generated image ${images.length - i}`} className="thumb" />
          </a>
        ))}
      </div>
      <ErrorNote error={error} />
    </form>
  );
}
