import type { Response } from 'express';
import type { Principal, TextGeneration, TextRequest } from '@gateway/core';
import { requestSignal } from './request-abort';

/** Says whether a count came from the upstream (`upstream`) or is the gateway's estimate (`estimated`). */
export const TOKEN_COUNT_HEADER = 'x-gateway-token-count';

/**
 * The input tokens of a request, for the count routes of every format: the client leaving aborts the upstream
 * call, and TOKEN_COUNT_HEADER tells the caller how the number was made. The route renders the number its own way.
 */
export async function countInputTokens(
  res: Response,
  text: TextGeneration,
  principal: Principal,
  request: TextRequest,
  format: string,
): Promise<number> {
  const counted = await text.countTokens(principal, request, {
    format,
    requestId: res.locals.requestId,
    signal: requestSignal(res),
  });
  res.setHeader(TOKEN_COUNT_HEADER, counted.estimated ? 'estimated' : 'upstream');
  return counted.inputTokens;
}
