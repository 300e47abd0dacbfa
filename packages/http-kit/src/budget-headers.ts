import type { RequestHandler } from 'express';
import type { BudgetStatus, Principal } from '@gateway/core';

const BUDGET_REMAINING_HEADER = 'x-gateway-budget-remaining';
const BUDGET_RESET_HEADER = 'x-gateway-budget-reset';

/** The status authentication read for the caller: kept beside the principal until the answer's head is written. */
export type BudgetedPrincipal = Principal & { budget?: BudgetStatus };

/**
 * Every answer to a caller with a limited quota or key budget carries what it had left when its request was
 * admitted (`x-gateway-budget-remaining`, credits) and when the binding quota starts again
 * (`x-gateway-budget-reset`, ISO 8601 UTC; absent for a lifetime quota). Set as the head is written (node's
 * writeHead, which every write path goes through), so streams and errors carry them too.
 */
export const budgetHeaders: RequestHandler = (_req, res, next) => {
  const writeHead = res.writeHead;
  res.writeHead = function (this: typeof res, ...args: Parameters<typeof writeHead>) {
    const budget = (res.locals.principal as BudgetedPrincipal | undefined)?.budget;
    if (budget && budget.remaining !== null && !res.headersSent) {
      res.setHeader(BUDGET_REMAINING_HEADER, String(Math.round(budget.remaining * 1e6) / 1e6));
      if (budget.resetsAt) res.setHeader(BUDGET_RESET_HEADER, budget.resetsAt.toISOString());
    }
    return writeHead.apply(this, args);
  } as typeof writeHead;
  next();
};
