// How big a model's context is and how much of it a turn keeps free: the
// window (from the environment, the catalogue, the log or the table), the room
// kept for the answer, and what a summary request adds. The agent sizes every
// request by them; a resumed transcript's usage lines use windowOf too.

import type { ModelRef } from "../session";
import type { ModelInfo } from "../providers/model-info";
import { builtinModel } from "../providers/builtin-models";
import { contextWindow, contextWindowFromEnv } from "../providers/models";
import type { TurnPlan } from "../providers/thinking-plan";
import { SUMMARY_INSTRUCTION_TOKENS, summaryMaxTokens } from "./compaction";

/**
 * A model's context window as the environment, the catalogue and the log tell
 * it (what Agent.window() falls back to, and what a resumed transcript's usage
 * lines use): AWL_CONTEXT_WINDOW, else the catalogue's max_input_tokens (`info`,
 * when it came from the provider: the built-in table's row comes last), else
 * the window of the compaction in force when it was made with this model, else
 * the model table's.
 */
export function windowOf(
  model: ModelRef,
  compaction: { provider: string; model: string; window: number } | undefined,
  env: Record<string, string | undefined> = process.env,
  info?: ModelInfo,
): number {
  const fromLog = compaction?.provider === model.provider && compaction.model === model.model ? compaction.window : undefined;
  // `info` may be the table's own row (no catalogue): only a window the table does not state is the catalogue's.
  const table = builtinModel(model.provider, model.model);
  const fromCatalogue = info?.maxInputTokens !== table?.maxInputTokens ? info?.maxInputTokens : undefined;
  return contextWindowFromEnv(env) ?? fromCatalogue ?? fromLog ?? contextWindow(model.provider, model.model);
}

/** Room kept for the answer: the smaller of the answer's limit and a quarter of the window. */
export function reserve(window: number, maxTokens: number): number {
  return Math.min(maxTokens, Math.floor(window / 4));
}

/** What the summary request adds to the conversation: its answer (a thinking budget included) and its instruction. */
export function summaryAllowance(window: number, plan: TurnPlan): number {
  return summaryMaxTokens(window, plan.maxTokens - plan.budget) + plan.budget + SUMMARY_INSTRUCTION_TOKENS;
}
