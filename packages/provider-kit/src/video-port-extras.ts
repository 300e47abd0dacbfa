import type { VideoModelPort } from '@gateway/core';

/**
 * What a wrapper of a video port passes on besides its calls: the synchronous check, whose errors `mapError` turns
 * into the wrapper's own, and the idempotentStart and remix flags as the port declares them.
 */
export function videoPortExtras<R>(
  port: { check?(request: R): void; readonly idempotentStart?: boolean; readonly remix?: boolean },
  mapError: (e: unknown) => unknown,
): Pick<VideoModelPort, 'idempotentStart' | 'remix'> & { check?(request: R): void } {
  const check = port.check?.bind(port);
  return {
    ...(check
      ? {
          check: (req: R) => {
            try {
              check(req);
            } catch (e) {
              throw mapError(e);
            }
          },
        }
      : {}),
    ...(port.idempotentStart === undefined ? {} : { idempotentStart: port.idempotentStart }),
    ...(port.remix === undefined ? {} : { remix: port.remix }),
  };
}
