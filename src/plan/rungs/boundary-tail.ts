import type { AnyMessage } from "../../ground/types.js";
import type { PlanContext } from "../plan-context.js";
import { findTailStart } from "../split-at-user-boundary.js";
import { keptFrom, type KeptTail } from "./kept-tail.js";

/** A kept tail, and whether it fits the tail budget. */
export interface BoundaryTail<M extends AnyMessage> extends KeptTail<M> {
  fits: boolean;
}

/**
 * Rung 2, always on: the largest tail that starts at a user turn and fits the tail budget (room
 * for the summary reserved). When none fits, the latest turn that may start a tail, whole, with
 * `fits` false: the later rungs cut it down.
 */
export function boundaryTail<M extends AnyMessage>(context: PlanContext<M>): BoundaryTail<M> {
  const { start, fits } = findTailStart(context.tokens, context.head, context.budget.tailBudget, context.isTailStart);
  return { ...keptFrom(context, start), fits };
}
