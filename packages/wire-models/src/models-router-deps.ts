import type { ModelCatalogue } from '@gateway/core';
import type { Authenticator } from '@gateway/http-kit';

export interface ModelsRouterDeps {
  authenticate: Authenticator;
  catalogue: ModelCatalogue;
}
