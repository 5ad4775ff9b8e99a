// How each model takes thinking: the form of the request (a budget, adaptive,
// or only an effort level), whether its thinking is always on, the effort
// levels it lists, whether its thinking text is hidden unless asked for, and
// whether it binds a thinking block to what came before it. Three sources, the
// first that knows winning: what a refusal from the API taught this process,
// the provider's catalogue (ModelInfo), and the id-prefix table below, written from the
// providers' docs (Anthropic "Adaptive thinking", "Effort", "Thinking",
// "Preserved thinking"; OpenAI "Reasoning models").

import type { ModelInfo } from "./model-info";
import type { ProviderName } from "./provider";

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

type Row = readonly [prefix: string, forms: Partial<ThinkingForms>];

const ALL_LEVELS = ["low", "medium", "high", "xhigh", "max"];
const ANTHROPIC_NEWEST = { adaptive: true, budget: false, levels: ALL_LEVELS, hiddenText: true } as const;

/**
 * Anthropic, by id prefix, the more specific rows first. Fable 5 and Mythos 5
 * (and Mythos Preview) think always and refuse both a budget and `disabled`;
 * Opus 4.7 and later refuse a budget; Opus 4.6 and Sonnet 4.6 take both forms
 * (the budget deprecated); Opus 4.5 takes a budget and effort levels; older
 * models a budget only. `xhigh` came with Opus 4.7; `max` with the 4.6 models.
 * From Opus 4.7 on the thinking text is omitted unless asked for. The models
 * of the preserved-thinking docs bind thinking to its prefix.
 */
const ANTHROPIC: readonly Row[] = [
  ["claude-fable-5-", { ...ANTHROPIC_NEWEST, alwaysOn: true, binds: true }],
  ["claude-mythos-5-", { ...ANTHROPIC_NEWEST, alwaysOn: true, binds: true }],
  ["claude-fable-5", { ...ANTHROPIC_NEWEST, alwaysOn: true }],
  ["claude-mythos-", { ...ANTHROPIC_NEWEST, alwaysOn: true }],
  ["claude-opus-5-5", { ...ANTHROPIC_NEWEST, binds: true }],
  ["claude-sonnet-5-5", { ...ANTHROPIC_NEWEST, binds: true }],
  ["claude-haiku-5-5", { ...ANTHROPIC_NEWEST, binds: true }],
  ["claude-opus-5", ANTHROPIC_NEWEST],
  ["claude-sonnet-5", ANTHROPIC_NEWEST],
  ["claude-opus-4-8", ANTHROPIC_NEWEST],
  ["claude-opus-4-7", ANTHROPIC_NEWEST],
  ["claude-opus-4-6", { adaptive: true, budget: true, levels: ["low", "medium", "high", "max"] }],
  ["claude-sonnet-4-6", { adaptive: true, budget: true, levels: ["low", "medium", "high", "max"] }],
  ["claude-opus-4-5", { budget: true, levels: ["low", "medium", "high"] }],
  ["claude-", { budget: true }],
];

/**
 * OpenAI's reasoning models and the `reasoning_effort` values each takes:
 * gpt-5 added `minimal`, gpt-5.1 `none` (in its place), gpt-5.2 `xhigh`.
 */
const OPENAI: readonly Row[] = [
  ["gpt-5-chat", {}],
  ["gpt-5.1-chat", {}],
  ["gpt-5.2-chat", {}],
  ["gpt-5.1", { levels: ["none", "low", "medium", "high"] }],
  ["gpt-5.", { levels: ["none", "low", "medium", "high", "xhigh"] }],
  ["gpt-5", { levels: ["minimal", "low", "medium", "high"] }],
  ["o1", { levels: ["low", "medium", "high"] }],
  ["o3", { levels: ["low", "medium", "high"] }],
  ["o4", { levels: ["low", "medium", "high"] }],
];

const NOTHING: ThinkingForms = { adaptive: false, budget: false, alwaysOn: false, hiddenText: false, binds: false };

/** What refusals taught this process, per provider/model. */
const learnt = new Map<string, Partial<ThinkingForms>>();
const key = (provider: string, model: string) => `${provider}/${model}`;

/**
 * Remembers what a refusal said about the model for the rest of the process:
 * the form it wants instead of the one sent, or that it binds thinking.
 */
export function learnThinking(provider: string, model: string, fact: Partial<ThinkingForms>): void {
  learnt.set(key(provider, model), { ...learnt.get(key(provider, model)), ...fact });
}

/**
 * What a refusal of the thinking configuration teaches, from its words; undefined
 * when it is about something else. (Anthropic's: `"thinking.type.enabled" is not
 * supported for this model`, `adaptive thinking is not supported on this model`,
 * `… The block is bound to a different conversation …`.)
 */
export function lessonOf(errorMessage: string | undefined): Partial<ThinkingForms> | undefined {
  if (!errorMessage) return undefined;
  if (/bound to a different conversation/i.test(errorMessage)) return { binds: true };
  if (/thinking\.type\.enabled"? is not supported/i.test(errorMessage)) return { adaptive: true, budget: false };
  if (/adaptive thinking is not supported/i.test(errorMessage)) return { adaptive: false, budget: true };
  return undefined;
}

/**
 * The model's thinking forms: the built-in table's, under the catalogue's
 * (which knows the forms and levels, never always-on or binding), under what
 * a refusal from the API itself taught this process.
 */
export function thinkingForms(provider: ProviderName, model: string, info?: ModelInfo): ThinkingForms {
  const id = model.trim().toLowerCase().replace(/^[^/]*\//, "");
  const row = (provider === "anthropic" ? ANTHROPIC : OPENAI).find(([prefix]) => id.startsWith(prefix))?.[1] ?? {};
  const forms: ThinkingForms = { ...NOTHING, ...row };
  const types = info?.thinkingTypes;
  if (types?.length) {
    forms.adaptive = types.includes("adaptive");
    forms.budget = types.includes("enabled");
  }
  if (info?.effortLevels?.length) forms.levels = info.effortLevels;
  return { ...forms, ...learnt.get(key(provider, model)) };
}
