import { UpstreamClient, type UpstreamClientConfig } from './upstream-client';

/** Two clients of one upstream, closed and drained together. */
export interface TextAndMediaClients {
  text: UpstreamClient;
  media: UpstreamClient;
  close(): void;
  drain(): void;
}

/**
 * A provider with text and media models: media calls (multipart uploads, polls, downloads) get sockets of their own,
 * so a burst of them never queues chat requests behind it.
 */
export function textAndMediaClients(config: UpstreamClientConfig): TextAndMediaClients {
  const text = new UpstreamClient(config);
  const media = new UpstreamClient(config);
  return {
    text,
    media,
    close: () => {
      text.destroy();
      media.destroy();
    },
    drain: () => {
      text.drain();
      media.drain();
    },
  };
}
