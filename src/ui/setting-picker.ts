// The pickers of `/model` and `/effort` with no argument: a list to choose
// from, typing filters it by words (`opus 5` keeps the rows with a word
// starting `opus` and one starting `5`, in any order, case ignored), ↑ ↓
// move, Enter chooses, Esc leaves it as it was. /model lists the provider's
// models newest first, the one in use marked, each with its window, output
// limit and the effort levels it takes; /effort lists only the levels the
// model in use takes. What is chosen runs
// as `/model <id>` or `/effort <level>` would.

import { autocomplete, isCancel } from "@clack/prompts";
import type { Agent } from "../agent/agent";
import type { Catalogues } from "../providers/catalogue";
import { EFFORTS, type Effort } from "../providers/thinking-forms";
import { limitsText } from "./model-list";
import { safeText } from "./render/safe-text";

export type PickedSetting = "model" | "effort";

interface Row {
  value: string;
  label: string;
  hint?: string;
}

/**
 * Every word typed starts a word of the text, in any order, case ignored. A
 * version is one word (`claude-sonnet-4-6` holds `4.6`, not `6`), so
 * `sonnet 6` finds Sonnet 6 and not Sonnet 4.6.
 */
export function matchesWords(search: string, text: string): boolean {
  const words = text.toLowerCase().replace(/(\d)[-.](?=\d)/g, "$1.").split(/[\s\-_/·,()]+/);
  return search.toLowerCase().split(/\s+/).filter(Boolean).every((typed) => words.some((word) => word.startsWith(typed)));
}

/** The argument to run the command with, or undefined when the person left the picker. */
export async function pickSetting(which: PickedSetting, agent: Agent, catalogues: Catalogues): Promise<string | undefined> {
  const rows = which === "model" ? modelRows(agent, catalogues) : effortRows(agent);
  const current = which === "model" ? agent.model.model : agent.effort;
  const answer = await autocomplete({
    message: which === "model" ? `${agent.model.provider}'s models, newest first (type words to filter, Enter switches, Esc leaves)` : `Effort levels ${agent.model.model} takes (Enter chooses, Esc leaves)`,
    options: rows,
    ...(current !== undefined && rows.some((r) => r.value === current) ? { initialValue: current } : {}),
    filter: (search, option) => matchesWords(search, `${option.value} ${option.label ?? ""}`),
    maxItems: 12,
  });
  return isCancel(answer) ? undefined : answer;
}

function modelRows(agent: Agent, catalogues: Catalogues): Row[] {
  const { provider, model } = agent.model;
  const models = catalogues.of(provider).models();
  const width = Math.max(0, ...models.map((m) => m.id.length));
  return models.map((m) => {
    const efforts = agent.effortsTaken({ provider, model: m.id });
    const facts = [m.displayName ?? "", limitsText(m), effortRange(efforts)].filter(Boolean).join(" · ");
    return { value: m.id, label: safeText(`${m.id.padEnd(width)}  ${facts}`), ...(m.id === model ? { hint: "in use" } : {}) };
  });
}

/** "effort off–max" when the levels run unbroken in EFFORTS' order, else each one ("effort low,medium,high,max"); "" for none. */
function effortRange(levels: readonly Effort[]): string {
  if (levels.length === 0) return "";
  const from = EFFORTS.indexOf(levels[0]!);
  const unbroken = levels.length > 2 && levels.every((level, i) => EFFORTS[from + i] === level);
  return `effort ${unbroken ? `${levels[0]}–${levels.at(-1)}` : levels.join(",")}`;
}

function effortRows(agent: Agent): Row[] {
  return agent.effortsTaken().map((level) => ({ value: level, label: level, ...(level === agent.effort ? { hint: "in use" } : {}) }));
}
