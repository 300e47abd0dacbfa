import type { LookupAddress } from 'node:dns';
import { Agent, type Dispatcher } from 'undici';

/** Error code of a socket that did not connect in time; the transport maps it to upstream_timeout. */
export const CONNECT_TIMEOUT_CODE = 'EGATEWAY_CONNECT_TIMEOUT';

/** Where a connection may go: resolves a host name, or refuses it (download hops, upstream-client.ts). */
export type HopLookup = (hostname: string, options: object) => Promise<{ address: string; family: 4 | 6 }>;

type LookupCallback = (err: Error | null, address: string | LookupAddress[], family?: number) => void;

/** A HopLookup in the callback form node's sockets call; `all` is asked when node races address families. */
function callbackLookup(lookup: HopLookup) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback) => {
    lookup(hostname, options).then(
      (a) => (options.all ? callback(null, [a]) : callback(null, a.address, a.family)),
      (e: Error) => callback(e, ''),
    );
  };
}

export interface KeepAliveAgents {
  /**
   * Sends one request through the pool of its origin; `checked` picks the pool whose connections resolve their host
   * through the hop lookup. A call after drain() or destroy() gets a pool of its own, closed once its answer ends.
   */
  dispatch(checked: boolean, options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): void;
  /** idle sockets close now, the others once the answer they carry has ended */
  drain(): void;
  destroy(): void;
}

/**
 * One undici Agent per configured provider (a keep-alive pool per origin, up to `maxSockets` sockets each), so one
 * slow upstream cannot starve another's sockets. Its own clocks are off: CallGuard runs the first-byte, idle and total
 * timeouts, undici only the connect one. Redirects are never followed here (the client checks each download hop).
 */
export function createKeepAliveAgents(connectMs: number, hopLookup: HopLookup, maxSockets = 256): KeepAliveAgents {
  const make = (checked: boolean) =>
    new Agent({
      connections: maxSockets,
      // an idle socket is kept a minute, or as long as the upstream's Keep-Alive hint says if shorter
      keepAliveTimeout: 60_000,
      headersTimeout: 0,
      bodyTimeout: 0,
      connect: { timeout: connectMs, keepAliveInitialDelay: 15_000, ...(checked ? { lookup: callbackLookup(hopLookup) } : {}) },
    });
  const api = make(false);
  let hops: Agent | undefined; // made on the first download off the upstream's own host
  let retired = false;
  const all = () => (hops ? [api, hops] : [api]);
  // closing or destroying fails only on a pool already closed or destroyed, which is what was asked
  const quietly = (p: Promise<void>) => void p.catch(() => undefined);
  return {
    dispatch(checked, options, handler) {
      if (!retired) return void (checked ? (hops ??= make(true)) : api).dispatch(options, handler);
      // a call that took the ports before a config reload replaced them
      const own = make(checked);
      own.dispatch(options, handler);
      quietly(own.close());
    },
    drain() {
      retired = true;
      for (const a of all()) quietly(a.close());
    },
    destroy() {
      retired = true;
      for (const a of all()) quietly(a.destroy());
    },
  };
}
