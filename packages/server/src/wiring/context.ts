import type { Database } from '@gateway/store-postgres';
import type { RequestHandler } from 'express';
import type { Authenticator } from '@gateway/http-kit';
import type { Billing, ContentStore, MeteredCacheDeps, RoutedCallDeps, RoutingObserver, UsageLog } from '@gateway/core';
import type { GatewayConfig } from '../config';
import type { GatewayEnv } from '../gateway';
import type { Logger } from '@gateway/observability';
import type { GatewayMetrics } from '@gateway/observability';
import type { ProviderRegistry } from '../providers';
import type { Repositories } from '../repositories';

/** Everything an area's wiring may use. Built once by createGateway. */
export interface WiringContext {
  env: GatewayEnv;
  config: GatewayConfig;
  knex: Database['knex'];
  /** every repository over the store, built once (repositories.ts) */
  stores: Repositories;
  usage: UsageLog;
  providers: ProviderRegistry;
  logger: Logger;
  authenticate: Authenticator;
  metrics: GatewayMetrics;
  billing: Billing;
  /** told of every upstream attempt: metrics and warn logs, and traces when they are on */
  routingObserver: RoutingObserver;
  /** where videos and thumbnails live (CONTENT_STORE) */
  content: ContentStore;
  /** the response cache's store (Redis, else the database) and metrics; undefined: nothing is cached (response-cache.ts) */
  responseCache?: MeteredCacheDeps;
  /** the clock key expiry and credit budget periods are read by */
  clock: () => Date;
}

/**
 * What an area hands back: the services it builds for the wire formats (wire-formats.ts mounts those), routers of
 * the server's own, and background work to start/stop with the process.
 */
export interface AreaWiring {
  services?: object;
  routers?: RequestHandler[];
  start?(): Promise<void> | void;
  stop?(): Promise<void>;
}

/** What every routed use case (text, images) takes from the context: one selection policy setup for both. */
export function routedDeps(ctx: WiringContext): RoutedCallDeps {
  return {
    catalogue: ctx.config.catalogue,
    usage: ctx.usage,
    billing: ctx.billing,
    breaker: ctx.config.circuitBreaker,
    observer: ctx.routingObserver,
  };
}

/** Several observers as one, each told in turn. */
export function allObservers(...observers: Array<RoutingObserver | undefined>): RoutingObserver {
  const list = observers.filter((o): o is RoutingObserver => o !== undefined);
  return {
    attempt: (a) => list.forEach((o) => o.attempt(a)),
    breakerChanged: (t) => list.forEach((o) => o.breakerChanged(t)),
  };
}
