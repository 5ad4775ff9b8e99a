// How each model takes thinking: the form of the request (a budget, adaptive,
// or only an effort level), whether its thinking is always on, the effort
// levels it lists, whether its thinking text is hidden unless asked for, and
// whether it binds a thinking block to what came before it. Three sources, the
// first that knows winning: what a refusal from the API taught this process,
// the provider's catalogue (ModelInfo), and the id-prefix table of the
// provider's row (`thinking` in registry.ts), written from the providers' docs.

import type { ModelInfo } from "./model-info";
import type { ProviderName } from "./provider";
import { findProvider } from "./registry";

/** What `--effort` takes; `off` asks for no thinking. */
export const EFFORTS = ["off", "low", "medium", "high", "xhigh", "max"] as const;
export type Effort = (typeof EFFORTS)[number];

export function isEffort(value: string | undefined): value is Effort {
  return (EFFORTS as readonly (string | undefined)[]).includes(value);
}

export interface ThinkingForms {
  /** Takes `thinking: {type: "adaptive"}` with an effort level. */
  adaptive: boolean;
  /** Takes `thinking: {type: "enabled", budget_tokens}`. */
  budget: boolean;
  /** Thinks whatever it is sent: `off` cannot be honoured (the catalogue never says this; only the table does). */
  alwaysOn: boolean;
  /** The levels the model lists (Anthropic `output_config.effort`, OpenAI `reasoning_effort`); undefined when nobody knows. */
  levels?: readonly string[];
  /** Its thinking text comes back empty unless `display: "summarized"` is asked for. */
  hiddenText: boolean;
  /** Refuses a replayed thinking block when anything before it changed (preserved thinking). */
  binds: boolean;
}

export type ThinkingRow = readonly [prefix: string, forms: Partial<ThinkingForms>];

const NOTHING: ThinkingForms = { adaptive: false, budget: false, alwaysOn: false, hiddenText: false, binds: false };

/** What refusals taught this process and, once recalled, earlier runs: per provider/model. */
const learnt = new Map<string, Partial<ThinkingForms>>();
const key = (provider: string, model: string) => `${provider}/${model}`;
/** Keeps the lessons for later runs (thinking-lessons.ts), once a run has recalled them. */
let keepLessons: ((lessons: ThinkingLessons) => void) | undefined;

/** Lessons by `provider/model`, as kept between runs. */
export type ThinkingLessons = Record<string, Partial<ThinkingForms>>;

/**
 * Remembers what a refusal said about the model: the form it wants instead of
 * the one sent, that it binds thinking, or that it always thinks. Kept for
 * later runs too when this one recalled earlier lessons.
 */
export function learnThinking(provider: string, model: string, fact: Partial<ThinkingForms>): void {
  learnt.set(key(provider, model), { ...learnt.get(key(provider, model)), ...fact });
  keepLessons?.(Object.fromEntries(learnt));
}

/** Starts from what earlier runs learnt (this process's own lessons win), and keeps every new lesson with `keep`. */
export function recallThinking(earlier: ThinkingLessons, keep: (lessons: ThinkingLessons) => void): void {
  for (const [model, fact] of Object.entries(earlier)) learnt.set(model, { ...fact, ...learnt.get(model) });
  keepLessons = keep;
}

/**
 * What a refusal of the thinking configuration teaches, from its words; undefined
 * when it is about something else. (Anthropic's: `"thinking.type.enabled" is not
 * supported for this model`, `adaptive thinking is not supported on this model`,
 * `"thinking.type.disabled" is not supported for this model` (it thinks always),
 * `… The block is bound to a different conversation …`.)
 */
export function lessonOf(errorMessage: string | undefined): Partial<ThinkingForms> | undefined {
  if (!errorMessage) return undefined;
  if (/bound to a different conversation/i.test(errorMessage)) return { binds: true };
  if (/thinking\.type\.enabled"? is not supported/i.test(errorMessage)) return { adaptive: true, budget: false };
  if (/adaptive thinking is not supported/i.test(errorMessage)) return { adaptive: false, budget: true };
  if (/thinking\.type\.disabled"? is not supported/i.test(errorMessage)) return { alwaysOn: true };
  return undefined;
}

/**
 * The model's thinking forms: the built-in table's, under the catalogue's
 * (which knows the forms and levels, never always-on or binding), under what
 * a refusal from the API itself taught this process.
 */
export function thinkingForms(provider: ProviderName, model: string, info?: ModelInfo): ThinkingForms {
  const id = model.trim().toLowerCase().replace(/^[^/]*\//, "");
  const row = findProvider(provider)?.thinking.find(([prefix]) => id.startsWith(prefix))?.[1] ?? {};
  const forms: ThinkingForms = { ...NOTHING, ...row };
  const types = info?.thinkingTypes;
  if (types?.length) {
    forms.adaptive = types.includes("adaptive");
    forms.budget = types.includes("enabled");
  }
  if (info?.effortLevels?.length) forms.levels = info.effortLevels;
  return { ...forms, ...learnt.get(key(provider, model)) };
}
