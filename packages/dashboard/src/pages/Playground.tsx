import type { Session } from '../session';
import { ErrorNote, NeedsCallKey } from '../components/bits';
import { useLoad } from '../components/use-load';
import { publicModels, type PublicModel } from '../models-api';
import { AudioPanel } from './playground/AudioPanel';
import { ChatPanel } from './playground/ChatPanel';
import { EmbeddingsPanel } from './playground/EmbeddingsPanel';
import { ImagePanel } from './playground/ImagePanel';
import { VideoPanel } from './playground/VideoPanel';

/**
 * Try the API with the account key: a streamed chat, an image, a video whose progress the page follows, the similarity
 * of two texts, speech played and transcribed.
 */
export function Playground({ session }: { session: Session }) {
  const key = session.callKey;
  const models = useLoad(() => (key ? publicModels(key) : Promise.resolve([] as PublicModel[])), [key]);
  if (!key) return <NeedsCallKey />;
  const of = (kind: string) => (models.data ?? []).filter((m) => m.kind === kind).map((m) => m.id);
  return (
    <section>
      <h1>Playground</h1>
      <ErrorNote error={models.error} />
      <div className="playground">
        <ChatPanel apiKey={key} models={of('text')} />
        <ImagePanel apiKey={key} models={of('image')} />
        <VideoPanel apiKey={key} models={of('video')} />
        <EmbeddingsPanel apiKey={key} models={of('embedding')} />
        <AudioPanel apiKey={key} speechModels={of('speech')} transcriptionModels={of('transcription')} />
      </div>
    </section>
  );
}
