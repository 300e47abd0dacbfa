import type { ModelSpec } from '../catalogue';
import { GatewayError } from '../errors';
import type { VideoModelPort } from '../ports/video-model.port';
import type { VideoTask } from '../video-task';
import type { DeploymentSelector } from './deployment-selection';

export interface VideoProviderLookup {
  video(providerId: string): VideoModelPort | undefined;
}

export interface VideoTarget {
  port: VideoModelPort;
  provider: string;
  upstreamModel: string;
}

/** The deployment a new video task is bound to, by the deployment-selection policy (priority, weight, open circuits skipped). */
export function videoTarget(model: ModelSpec, providers: VideoProviderLookup, selector: DeploymentSelector): VideoTarget {
  const chosen = selector.choose(model.deployments, (p) => providers.video(p));
  if (chosen) return { port: chosen.port, provider: chosen.deployment.provider, upstreamModel: chosen.deployment.upstreamModel };
  throw new GatewayError('upstream_unavailable', `No configured upstream renders video for ${model.id}.`, { code: 'no_video_upstream' });
}

/** Where a task is submitted: the deployment stored at admission, so the check, the price and the upstream agree whatever the config says now. */
export function submitTarget(task: VideoTask, providers: VideoProviderLookup): VideoTarget {
  const d = task.deployment;
  const port = d && providers.video(d.provider);
  if (!port) {
    throw new GatewayError('upstream_unavailable', `Provider ${d?.provider ?? '(none)'} is no longer configured.`, {
      code: 'upstream_unavailable',
    });
  }
  return { port, provider: d.provider, upstreamModel: d.upstreamModel };
}

/** Best effort: asks the task's upstream to stop; the task's own state is already final whatever it answers. */
export function cancelUpstream(providers: VideoProviderLookup, task: VideoTask): void {
  const port = task.upstream && providers.video(task.upstream.provider);
  if (task.upstream && port?.cancel) port.cancel(task.upstream.operation).catch(() => undefined); // best effort, see above
}
