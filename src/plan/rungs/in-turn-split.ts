import type { AnyMessage } from "../../ground/types.js";
import type { PlanContext } from "../plan-context.js";
import { findInsideTurnTail } from "../split-inside-turn.js";
import { keptUserAnd, type KeptTail } from "./kept-tail.js";
import type { BoundaryTail } from "./boundary-tail.js";

/**
 * Rung 3, `splitInsideTurn`: when no tail from a user turn fits, the latest user message plus the
 * newest complete tool groups that fit the tail budget. Undefined when the boundary tail fits, the
 * rung is off, or there is no complete group after the user message.
 */
export function inTurnSplit<M extends AnyMessage>(
  context: PlanContext<M>,
  atUserTurn: BoundaryTail<M>,
): KeptTail<M> | undefined {
  if (atUserTurn.fits || !context.options.splitInsideTurn) return undefined;
  const inside = findInsideTurnTail(context.tokens, {
    head: context.head,
    keepTail: context.budget.tailBudget,
    isBoundary: context.isTailStart,
    view: context.view,
  });
  return inside === undefined ? undefined : keptUserAnd(context, inside);
}
