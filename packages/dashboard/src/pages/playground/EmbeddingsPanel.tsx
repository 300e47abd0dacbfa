import { useState, type FormEvent } from 'react';
import { sendJson } from '../../api';
import { ErrorNote, Field, ModelSelect } from '../../components/bits';
import { compareEmbeddings, embeddingsBody, type EmbeddingsAnswer } from '../../embeddings-compare';

/** Embeds two texts in one request (POST /v1/embeddings) and shows how close they are: related texts score higher. */
export function EmbeddingsPanel(props: { apiKey: string; models: string[] }) {
  const [model, setModel] = useState('');
  const [first, setFirst] = useState('');
  const [second, setSecond] = useState('');
  const [result, setResult] = useState<{ similarity: number; dimensions: number } | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // never rejects: a failure is shown on the page, so its event handler drops the promise (void)
  const compare = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setResult(null);
    try {
      const body = embeddingsBody(model || props.models[0] || '', first, second);
      setResult(compareEmbeddings(await sendJson<EmbeddingsAnswer>(props.apiKey, 'POST', '/v1/embeddings', body)));
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="panel" onSubmit={(e) => void compare(e)} aria-label="Embeddings">
      <h2>Embeddings</h2>
      <ModelSelect label="Embedding model" models={props.models} value={model} onChange={setModel} />
      <Field label="First text">
        <textarea value={first} onChange={(e) => setFirst(e.target.value)} rows={2} required />
      </Field>
      <Field label="Second text">
        <textarea value={second} onChange={(e) => setSecond(e.target.value)} rows={2} required />
      </Field>
      <button type="submit" disabled={busy || !first.trim() || !second.trim()}>
        Compare
      </button>
      {result && (
        <p className="reply">
          Cosine similarity <output aria-label="Similarity">{result.similarity.toFixed(4)}</output> between vectors of{' '}
          <output aria-label="Vector size">{result.dimensions}</output> numbers
        </p>
      )}
      <ErrorNote error={error} />
    </form>
  );
}
