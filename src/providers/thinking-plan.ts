// A turn's thinking and answer limit, decided once when the turn starts and
// kept for every request of it, tool loop included: a budget or max_tokens
// that changed between requests would void the prompt cache of the messages
// and, mid-loop, break the rule that a turn's thinking stays as it began.
// Near the window awl compacts instead of lowering them.

import type { ProviderName } from "./provider";
import { findProvider } from "./registry";
import type { Effort, ThinkingForms } from "./thinking-forms";

/** What a request asks of the model's thinking, in terms each wire translates. */
export type ThinkingRequest =
  /** No thinking: Anthropic `disabled`, OpenAI `none` or `minimal`. */
  | { form: "off"; level?: string }
  /** Anthropic `thinking: {type: "adaptive"}` with `output_config.effort`. */
  | { form: "adaptive"; level?: string; display?: "summarized" }
  /** Anthropic `thinking: {type: "enabled", budget_tokens}`, with the level too when the model lists levels. */
  | { form: "budget"; budget: number; level?: string }
  /** OpenAI `reasoning_effort`. */
  | { form: "level"; level: string };

export interface TurnPlan {
  thinking?: ThinkingRequest;
  /** The answer's max_tokens, thinking included. */
  maxTokens: number;
  /** The thinking budget inside maxTokens (0 when the model decides, or does not think). */
  budget: number;
}

/** The share of max_tokens kept for the answer itself, beside any thinking budget. */
export const ANSWER_SHARE = 16_384;
/** The output limit assumed for a model nobody states one for: one every current model allows. */
export const DEFAULT_OUTPUT_LIMIT = 32_000;
/** Anthropic refuses a smaller budget. */
const MIN_BUDGET = 1024;
/** A level as a budget, for models that take a budget and no level. `max` is all the output limit leaves. */
const BUDGETS: Record<Exclude<Effort, "off" | "max">, number> = { low: 4_096, medium: 10_240, high: 24_576, xhigh: 32_768 };

/**
 * Why `effort` cannot be used with this model, in one line, or undefined. Said
 * before any request: `off` on a model that always thinks, and a level a
 * Messages API model does not list (OpenAI's list names no levels: its own 400 says).
 */
export function refuseEffort(effort: Effort | undefined, forms: ThinkingForms, provider: ProviderName, model: string): string | undefined {
  if (!effort) return undefined;
  if (effort === "off" && forms.alwaysOn) return `${model} always thinks: effort off is not possible (low thinks least)`;
  if (!messagesThinking(provider) || effort === "off" || !forms.levels || forms.levels.includes(effort)) return undefined;
  return `${model} does not take effort ${effort}: it takes ${forms.levels.join(", ")}`;
}

/**
 * The thinking and max_tokens of a turn. `outputLimit` is the model's (else
 * DEFAULT_OUTPUT_LIMIT); max_tokens is also kept within a quarter of the
 * window, the room the context keeps free for the answer, so that a prompt
 * that fits the window always fits with its answer.
 */
export function planTurn(o: { provider: ProviderName; effort?: Effort; forms: ThinkingForms; outputLimit?: number; window: number; answer?: number }): TurnPlan {
  const cap = Math.max(MIN_BUDGET, Math.min(o.outputLimit ?? DEFAULT_OUTPUT_LIMIT, Math.floor(o.window / 4)));
  const answer = Math.min(o.answer ?? ANSWER_SHARE, cap);
  const plain: TurnPlan = { thinking: undefined, maxTokens: answer, budget: 0 };
  const { effort, forms } = o;
  // No effort chosen: nothing asked of the model's thinking, except to show it where it always thinks and hides the text.
  if (!effort) return messagesThinking(o.provider) && forms.alwaysOn && forms.hiddenText ? { ...plain, thinking: { form: "adaptive", display: "summarized" } } : plain;
  if (!messagesThinking(o.provider)) return { ...plain, thinking: { form: "level", level: openaiLevel(effort, forms.levels) } };
  if (effort === "off") return { ...plain, thinking: { form: "off" } };
  // A level the model lists (or any, when nobody knows its list: the API then says).
  const level = !forms.levels || forms.levels.includes(effort) ? effort : undefined;
  if (forms.adaptive) return { ...plain, thinking: { form: "adaptive", level, ...(forms.hiddenText ? { display: "summarized" } : {}) } };
  // A budget: the level's, within what the output limit leaves beside the answer (half of it at least).
  const share = Math.min(answer, Math.floor(cap / 2));
  const room = cap - share;
  if (room < MIN_BUDGET) return plain;
  const budget = Math.max(MIN_BUDGET, Math.min(effort === "max" ? room : BUDGETS[effort], room));
  // Budget models list levels only when they take them beside the budget (Opus 4.5).
  const withLevel = forms.levels?.includes(effort) ? { level: effort } : {};
  return { thinking: { form: "budget", budget, ...withLevel }, maxTokens: budget + share, budget };
}

/** Whether the provider takes thinking as the Messages API does (a budget, or adaptive with a level); the others take a level alone (OpenAI's reasoning effort). */
function messagesThinking(provider: ProviderName): boolean {
  return findProvider(provider)?.apis.includes("anthropic-messages") ?? false;
}

/** OpenAI's `reasoning_effort` for a level: `off` is `none` where taken, else `minimal`; `xhigh` and `max` are `xhigh` where taken, else `high`. */
function openaiLevel(effort: Effort, levels: readonly string[] | undefined): string {
  if (effort === "off") return levels?.includes("none") ? "none" : "minimal";
  if (effort === "xhigh" || effort === "max") return levels?.includes("xhigh") ? "xhigh" : "high";
  return effort;
}
