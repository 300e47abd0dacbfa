import type { Request } from 'express';
import { requestOrigin } from '@gateway/http-kit';
import type { GatewayEnv } from './gateway-env';

/**
 * The base of every link the gateway hands out (image and video downloads, operation URIs, OpenAPI `servers`):
 * PUBLIC_BASE_URL when it is set; otherwise the origin the request came in on (a client on 127.0.0.1 is not sent to
 * localhost), and the derived default for links minted without a request (the webhook worker). Read per call, so an
 * operator (or a test) may change the environment object after start.
 */
export function publicBaseUrlFor(env: Pick<GatewayEnv, 'publicBaseUrl' | 'publicBaseUrlDerived' | 'trustProxy'>) {
  return (req?: Request): string => (req && env.publicBaseUrlDerived && requestOrigin(req, env.trustProxy === true)) || env.publicBaseUrl;
}
