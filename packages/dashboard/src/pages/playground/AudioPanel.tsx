import { useEffect, useState, type FormEvent } from 'react';
import { call } from '../../api';
import {
  SPEECH_FORMATS,
  VOICES,
  speechBody,
  spokenAudio,
  transcriptionForm,
  type SpeechFormat,
  type SpokenAudio,
} from '../../audio-request';
import { ErrorNote, Field, ModelSelect } from '../../components/bits';

/** A page URL for the audio, revoked when the audio is replaced or the panel goes away. */
function useObjectUrl(blob: Blob | undefined): string | undefined {
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    if (!blob) return setUrl(undefined);
    const u = URL.createObjectURL(blob);
    setUrl(u);
    return () => URL.revokeObjectURL(u);
  }, [blob]);
  return url;
}

/**
 * Speaks a text (POST /v1/audio/speech) into an `<audio>` player, then transcribes that audio, or the chosen file
 * instead (POST /v1/audio/transcriptions, multipart): a simulator voice comes back as the words it spoke.
 */
export function AudioPanel(props: { apiKey: string; speechModels: string[]; transcriptionModels: string[] }) {
  const [speechModel, setSpeechModel] = useState('');
  const [transcriptionModel, setTranscriptionModel] = useState('');
  const [text, setText] = useState('');
  const [voice, setVoice] = useState<string>(VOICES[0]);
  const [format, setFormat] = useState<SpeechFormat>('mp3');
  const [spoken, setSpoken] = useState<SpokenAudio>();
  const [upload, setUpload] = useState<File | null>(null);
  const [transcript, setTranscript] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const url = useObjectUrl(spoken?.blob);

  // never rejects: a failure is shown on the page, so the event handlers drop its promise (void)
  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const speak = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      setTranscript(null);
      const body = speechBody({ model: speechModel || props.speechModels[0] || '', input: text, voice, format });
      const res = await call(props.apiKey, '/v1/audio/speech', { method: 'POST', body: JSON.stringify(body) });
      setSpoken(spokenAudio(new Uint8Array(await res.arrayBuffer()), format));
    });
  };
  const transcribe = () =>
    run(async () => {
      const audio = upload ? { blob: upload, name: upload.name } : spoken;
      if (!audio) return;
      const form = transcriptionForm(transcriptionModel || props.transcriptionModels[0] || '', audio);
      const res = await call(props.apiKey, '/v1/audio/transcriptions', { method: 'POST', body: form });
      setTranscript(((await res.json()) as { text: string }).text);
    });

  return (
    <form className="panel" onSubmit={speak} aria-label="Audio">
      <h2>Audio</h2>
      <ModelSelect label="Speech model" models={props.speechModels} value={speechModel} onChange={setSpeechModel} />
      <Field label="Text to speak">
        <textarea value={text} onChange={(e) => setText(e.target.value)} rows={2} required />
      </Field>
      <Field label="Voice">
        <select value={voice} onChange={(e) => setVoice(e.target.value)}>
          {VOICES.map((v) => (
            <option key={v}>{v}</option>
          ))}
        </select>
      </Field>
      <Field label="Audio format">
        <select value={format} onChange={(e) => setFormat(e.target.value as SpeechFormat)}>
          {SPEECH_FORMATS.map((f) => (
            <option key={f}>{f}</option>
          ))}
        </select>
      </Field>
      <button type="submit" disabled={busy || !text.trim()}>
        Speak
      </button>
      {url && spoken && (
        <p>
          <audio controls src={url} aria-label="Spoken audio" />{' '}
          <a href={url} download={spoken.name}>
            Download
          </a>
        </p>
      )}
      <ModelSelect
        label="Transcription model"
        models={props.transcriptionModels}
        value={transcriptionModel}
        onChange={setTranscriptionModel}
      />
      <Field label="Audio file to transcribe">
        <input type="file" accept="audio/*,video/mp4,video/webm" onChange={(e) => setUpload(e.target.files?.[0] ?? null)} />
      </Field>
      <button type="button" disabled={busy || (!upload && !spoken)} onClick={() => void transcribe()}>
        Transcribe
      </button>
      {transcript !== null && (
        <output aria-label="Transcript" className="reply">
          {transcript}
        </output>
      )}
      <ErrorNote error={error} />
    </form>
  );
}
