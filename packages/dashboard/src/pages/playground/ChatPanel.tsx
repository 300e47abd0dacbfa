import { useState, type FormEvent } from 'react';
import { streamChat } from '../../chat-stream';
import { ErrorNote, Field, ModelSelect } from '../../components/bits';

export function ChatPanel(props: { apiKey: string; models: string[] }) {
  const [model, setModel] = useState('');
  const [message, setMessage] = useState('');
  const [reply, setReply] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const send = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setReply('');
    try {
      await streamChat(props.apiKey, model || props.models[0] || '', message, (d) => setReply((r) => r + d));
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="panel" onSubmit={send} aria-label="Chat">
      <h2>Chat</h2>
      <ModelSelect label="Chat model" models={props.models} value={model} onChange={setModel} />
      <Field label="Message">
        <textarea value={message} onChange={(e) => setMessage(e.target.value)} rows={3} required />
      </Field>
      <button type="submit" disabled={busy || !message.trim()}>
        Send
      </button>
      <output aria-label="Reply" aria-busy={busy} className="reply">
        {reply}
      </output>
      <ErrorNote error={error} />
    </form>
  );
}
