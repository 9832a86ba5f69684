/**
 * The capacity planner's worker: the sweep runs the scale runtime once per parallelism, seconds of
 * work that would freeze the page on its main thread.
 */
import type { PlannerReply, PlannerRequest } from './capacity-planner-protocol.ts';
import { answerPlannerRequest } from './capacity-planner-session.ts';

const scope = self as unknown as { postMessage(reply: PlannerReply): void; onmessage: ((event: MessageEvent<PlannerRequest>) => void) | null };

scope.onmessage = (event) => answerPlannerRequest(event.data, (reply) => scope.postMessage(reply));
