// `/model`: the model in use and the provider's models, or a switch to the
// one the words name (a model the provider does not list is said, with the
// nearest it does); and what a command needs before it runs (the provider's
// list, fresh enough to check a name against).

import type { Agent } from "../agent/agent";
import type { Catalogues } from "../providers/catalogue";
import { newestOfFamily, resembling } from "../providers/model-family";
import type { ModelInfo } from "../providers/model-info";
import type { ProviderName } from "../providers/provider";
import type { ModelRef } from "../session";
import { foreignPrefix, parseModelSpec } from "../providers/models";
import type { Colors } from "./render/colors";
import { safeText } from "./render/safe-text";
import { limitsText, modelRows } from "./model-list";
import { matchesWords } from "./setting-picker";
import type { Command } from "./commands";
import { UserError } from "../errors";
import { replMessage } from "./advice";
import { prepareMcp } from "./mcp-status";

/** `/model` with words (a switch) or without (the list). */
export function modelCommand(agent: Agent, argument: string, c: Colors, catalogues: Catalogues): string {
  return argument ? switchModel(agent, argument, c, catalogues) : showModels(agent, c, catalogues);
}

/** `/model`: the active model with its limits, then the provider's models newest first, and where the list came from. */
function showModels(agent: Agent, c: Colors, catalogues: Catalogues): string {
  const { provider, model } = agent.model;
  const catalogue = catalogues.of(provider);
  const limits = limitsText(agent.activeModelInfo);
  const rows = modelRows(catalogue.models(), (id) => (id === model ? c.green("  (active)") : ""));
  return [
    `Active: ${c.bold(safeText(`${provider}/${model}`))}${limits ? ` (${limits})` : ""}`,
    `${provider}'s models, newest first, ${catalogue.describeSource()}:`,
    ...rows,
    c.dim(
      catalogue.listed
        ? `Switch with /model <id> (an id ${provider} does not list is refused), or /model <provider>/<id>.`
        : "Any other id works too (a local server's, say): /model <id>, or /model <provider>/<id>.",
    ),
  ].join("\n");
}

/**
 * `/model spec`: from the next prompt on. The reply says which provider the
 * model goes to when the spec did not name one. A spec that names no model
 * ("<provider>/") is refused with what is accepted, and so is a provider that
 * cannot be used (no key): the model in use stays.
 */
function switchModel(agent: Agent, typed: string, c: Colors, catalogues: Catalogues): string {
  const still = () => `Still using ${safeText(`${agent.model.provider}/${agent.model.model}`)}.`;
  // Words rather than an id (`sonnet`, `opus 5`): the one model they match, or the question which.
  const catalogue = catalogues.of(agent.model.provider);
  const models = catalogue.models();
  const anId = typed.includes("/") || models.some((m) => m.id === typed) || (catalogue.listed !== undefined && isListed(typed, catalogue.listed));
  const matching = anId ? [] : models.filter((m) => matchesWords(typed, `${m.id} ${m.displayName ?? ""}`));
  if (matching.length > 1) {
    const ids = matching.map((m) => m.id);
    return `${matching.length} models match ${safeText(typed)}, newest first: ${safeText(ids.join(", "))}. Which one? /model ${safeText(ids[0]!)} (or /model alone to pick from the list)\n${still()}`;
  }
  const spec = matching[0]?.id ?? typed;
  try {
    const parsed = parseModelSpec(spec);
    const provider = parsed.provider ?? agent.model.provider;
    // Where the server answered a models list (made fresh by prepareCommand), an id it lacks is refused: it would fail with a 404.
    const served = catalogues.of(provider).listed;
    if (served && !isListed(parsed.model, served)) return c.red(`${notListed(provider, parsed.model, served)}\n${still()}`);
    agent.setModel({ provider, model: parsed.model });
    void catalogues.of(provider).load(); // another provider's list, for its window and the next /model (never throws)
    const using = `Using ${c.bold(safeText(`${provider}/${parsed.model}`))} from the next prompt on`;
    // The effort in force may not fit the new model: said now, not when the next prompt is refused.
    const effort = agent.effortRefusal();
    const misfit = effort ? `\n${c.yellow(`${safeText(effort)}: choose another with /effort before the next prompt.`)}` : "";
    // A server with no list takes any id, but one a letter or two off a built-in id is most likely a typo.
    const typo = served ? undefined : resembling(parsed.model, catalogues.of(provider).models().map((m) => m.id));
    if (typo) return `${using}. ${c.yellow(`${provider} does not list ${safeText(parsed.model)}: did you mean ${typo}? (/model ${typo})`)}${misfit}`;
    const vendor = foreignPrefix(parsed);
    if (vendor) return `${using}: ${safeText(vendor)} is not a provider awl knows, so the id goes to ${provider}, the current provider, as it is.${misfit}`;
    if (!parsed.provider) return `${using} (a model of ${provider}, the current provider).${misfit}`;
    return `${using}.${misfit}`;
  } catch (error) {
    if (error instanceof UserError) return c.red(`${safeText(replMessage(error))}\n${still()}`);
    throw error;
  }
}

/** Both ends are a terminal: a picker can be drawn and answered. */
export const atTerminal = () => process.stdin.isTTY === true && process.stdout.isTTY === true;

/** How old a models list may be for /model to judge an id by it: a model released since is then found. */
const LIST_FRESH_MS = 60_000;

/** What a command needs before it runs: `/model <id>` judges the id by a list at most a minute old (asked again first when older). */
export async function prepareCommand(command: Command, agent: Agent, catalogues: Catalogues): Promise<void> {
  if (command.name === "mcp") await prepareMcp(agent.mcp, command.argument);
  if (command.name !== "model" || !command.argument) return;
  let provider: ProviderName = agent.model.provider;
  try {
    provider = parseModelSpec(command.argument).provider ?? provider;
  } catch {
    return; // refused as it runs
  }
  await catalogues.of(provider).freshen(LIST_FRESH_MS);
}

/** What a refusal of an id the list lacks offers: the way to use another, and where the list is. */
interface ModelAdvice {
  use(id: string): string;
  list: string;
}

const SLASH_MODEL: ModelAdvice = { use: (id) => `/model ${id}`, list: "/model alone lists its models" };
/** A Markdown command's model is its file's `model:` line, in the REPL as under -p. */
const MODEL_LINE: ModelAdvice = { use: (id) => `model: ${id}`, list: "awl models lists them" };

/** Why a Markdown command's model cannot be sent: where its provider answered a models list, the list lacks it; undefined when it can. */
export function unservedModel(model: ModelRef, catalogues: Catalogues): string | undefined {
  const served = catalogues.of(model.provider).listed;
  return served && !isListed(model.model, served) ? notListed(model.provider, model.model, served, MODEL_LINE) : undefined;
}

/** Listed as it is, or as the alias of a dated snapshot (claude-haiku-4-5 for claude-haiku-4-5-20251001). */
function isListed(model: string, listed: readonly ModelInfo[]): boolean {
  return listed.some((m) => m.id === model || m.id.startsWith(`${model}-2`));
}

/** The refusal of an id the list lacks, with the ids nearest to it: what it resembles, then its family's newest. */
function notListed(provider: string, model: string, listed: readonly ModelInfo[], advice: ModelAdvice = SLASH_MODEL): string {
  const ids = listed.map((m) => m.id);
  const nearest = [...new Set([resembling(model, ids), ...newestOfFamily(listed, model)].filter((id): id is string => id !== undefined))].slice(0, 3);
  const offer = nearest.length ? `: did you mean ${nearest.join(", ")}? (${advice.use(nearest[0]!)})` : ` (${advice.list})`;
  return `${provider} does not list ${safeText(model)}${offer}`;
}
