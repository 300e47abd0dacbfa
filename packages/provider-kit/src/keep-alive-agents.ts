import http from 'node:http';
import https from 'node:https';
import type { Duplex } from 'node:stream';

/** Error code of a socket that did not connect in time; the transport maps it to upstream_timeout. */
export const CONNECT_TIMEOUT_CODE = 'EGATEWAY_CONNECT_TIMEOUT';

type CreateConnection = (options: object, callback?: (err: Error | null, socket: Duplex) => void) => Duplex;

/** Wraps an agent's createConnection so a new socket that has not connected after `ms` is destroyed. */
function withConnectTimeout<A extends http.Agent>(agent: A, ms: number, connectedEvent: 'connect' | 'secureConnect'): A {
  const a = agent as unknown as { createConnection: CreateConnection };
  const original = a.createConnection.bind(agent);
  a.createConnection = (options, callback) => {
    const socket = original(options, callback);
    const timer = setTimeout(() => {
      const err = Object.assign(new Error(`connect timed out after ${ms} ms`), { code: CONNECT_TIMEOUT_CODE });
      socket.destroy(err);
    }, ms);
    timer.unref();
    const clear = () => clearTimeout(timer);
    socket.once(connectedEvent, clear);
    socket.once('close', clear);
    return socket;
  };
  return agent;
}

export interface KeepAliveAgents {
  httpAgent: http.Agent;
  httpsAgent: https.Agent;
  /** a call starts using the agents; the returned function (safe to call twice) says it ended */
  begin(): () => void;
  /** idle sockets close now; the agents are destroyed when the last call in flight ends */
  drain(): void;
  destroy(): void;
}

/** One pair of keep-alive agents per configured provider, so one slow upstream cannot starve another's sockets. */
export function createKeepAliveAgents(connectMs: number, maxSockets = 256): KeepAliveAgents {
  const opts = { keepAlive: true, keepAliveMsecs: 15_000, maxSockets, maxFreeSockets: 32 };
  const httpAgent = withConnectTimeout(new http.Agent(opts), connectMs, 'connect');
  const httpsAgent = withConnectTimeout(new https.Agent(opts), connectMs, 'secureConnect');
  let inFlight = 0;
  let draining = false;
  const destroy = () => {
    httpAgent.destroy();
    httpsAgent.destroy();
  };
  const closeIdle = () => {
    for (const agent of [httpAgent, httpsAgent])
      for (const sockets of Object.values(agent.freeSockets)) for (const s of sockets ?? []) s.destroy();
  };
  const settle = () => {
    if (!draining) return;
    if (inFlight === 0) destroy();
    else closeIdle(); // a socket freed by a finished call is not reused any more
  };
  return {
    httpAgent,
    httpsAgent,
    begin() {
      inFlight++;
      let ended = false;
      return () => {
        if (ended) return;
        ended = true;
        inFlight--;
        // the socket goes back to the pool after the body's end event; settle once it is there
        if (draining) setImmediate(settle);
      };
    },
    drain() {
      draining = true;
      settle();
    },
    destroy,
  };
}
