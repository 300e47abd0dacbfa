import type { ModelCatalogue } from '@gateway/core';
import type { Authenticator, ErrorRenderer } from '@gateway/http-kit';

export interface ModelsRouterDeps {
  authenticate: Authenticator;
  catalogue: ModelCatalogue;
  /** the three shapes the lists answer in; Anthropic's and Google's come from their packages via the server */
  render: { openai: ErrorRenderer; anthropic: ErrorRenderer; google: ErrorRenderer };
}
