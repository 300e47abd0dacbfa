import type { ModelCatalogue, ModelSpec } from '../catalogue';
import { GatewayError } from '../errors';
import type { VideoModelPort } from '../ports';
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

/** The deployment a new video task is bound to, by the one selection policy (priority, weight, open circuits skipped). */
export function videoTarget(model: ModelSpec, providers: VideoProviderLookup, selector: DeploymentSelector): VideoTarget {
  const chosen = selector.choose(model.deployments, (p) => providers.video(p));
  if (chosen) return { port: chosen.port, provider: chosen.deployment.provider, upstreamModel: chosen.deployment.upstreamModel };
  throw new GatewayError('upstream_unavailable', `No configured upstream renders video for ${model.id}.`, { code: 'no_video_upstream' });
}

/**
 * Where a task is submitted: the deployment stored at admission, so the check, the price and the upstream agree
 * whatever the config says now. Tasks admitted before deployments were stored resolve by the policy, as then.
 */
export function submitTarget(
  task: VideoTask,
  catalogue: ModelCatalogue,
  providers: VideoProviderLookup,
  selector: DeploymentSelector,
): VideoTarget {
  if (task.deployment) {
    const port = providers.video(task.deployment.provider);
    if (!port) {
      throw new GatewayError('upstream_unavailable', `Provider ${task.deployment.provider} is no longer configured.`, {
        code: 'upstream_unavailable',
      });
    }
    return { port, ...task.deployment };
  }
  const model = catalogue.get(task.model);
  if (!model) throw new GatewayError('upstream_unavailable', `Model ${task.model} is no longer configured.`, { code: 'model_unavailable' });
  return videoTarget(model, providers, selector);
}

/** Best effort: asks the task's upstream to stop; the task's own state is already final whatever it answers. */
export function cancelUpstream(providers: VideoProviderLookup, task: VideoTask): void {
  const port = task.upstream && providers.video(task.upstream.provider);
  if (task.upstream && port?.cancel) port.cancel(task.upstream.operation).catch(() => undefined); // best effort, see above
}
