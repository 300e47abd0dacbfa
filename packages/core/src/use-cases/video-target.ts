import type { ModelSpec } from '../catalogue';
import { GatewayError } from '../errors';
import type { VideoModelPort } from '../ports';

export interface VideoProviderLookup {
  video(providerId: string): VideoModelPort | undefined;
}

export interface VideoTarget {
  port: VideoModelPort;
  provider: string;
  upstreamModel: string;
}

/** The deployment a new video task is submitted to: the first by priority whose provider renders video. */
export function videoTarget(model: ModelSpec, providers: VideoProviderLookup): VideoTarget {
  for (const d of [...model.deployments].sort((a, b) => a.priority - b.priority)) {
    const port = providers.video(d.provider);
    if (port) return { port, provider: d.provider, upstreamModel: d.upstreamModel };
  }
  throw new GatewayError('upstream_unavailable', `No configured upstream renders video for ${model.id}.`, { code: 'no_video_upstream' });
}
