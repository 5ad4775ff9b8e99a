// Model names: parsing of "provider/model" specs, and how many input tokens a
// model takes when neither an error, AWL_CONTEXT_WINDOW nor the provider's
// catalogue said (docs/architecture.md, "Context windows"). Today's models,
// the windows of older ones and the defaults are the providers' rows
// (registry.ts); the catalogue is in catalogue.ts.

import { UsageError } from "../errors";
import { builtinModel } from "./builtin-models";
import type { ProviderName } from "./provider";
import { findProvider, isProviderName, providerRows } from "./registry";

/**
 * The provider's default model: AWL_MODEL when it names a model of this
 * provider, else `newest` (the catalogue's newest of the default family, when
 * there is a catalogue), else the built-in default.
 */
export function defaultModel(provider: ProviderName, env: Record<string, string | undefined> = {}, newest?: string): string {
  const fromEnv = env.AWL_MODEL ? parseModelSpec(env.AWL_MODEL) : undefined;
  if (fromEnv && (fromEnv.provider ?? provider) === provider) return fromEnv.model;
  return newest ?? builtinDefault(provider);
}

/** The provider's default when its catalogue cannot say ("" for a provider awl does not know: nothing can be sent to it). */
export function builtinDefault(provider: ProviderName): string {
  return findProvider(provider)?.defaultModel ?? "";
}

/**
 * "openai/gpt-4o" -> {provider: "openai", model: "gpt-4o"}; a bare id infers
 * its provider from well-known prefixes, otherwise leaves it to the caller
 * (the current provider: a local server's "llama3.2" stays on openai). A
 * prefix that is not a provider stays part of the id ("meta-llama/Llama-3",
 * OpenRouter's "google/gemini-2.5-pro"); to send an id that starts with a
 * provider's name, put the provider first ("openai/anthropic/claude-sonnet-4.5").
 * Refused, with what is accepted (a UsageError): nothing, a slash with no
 * model after it ("anthropic/", "google/"), no provider before it ("/gpt-5"),
 * and spaces (ids have none: "openai gpt-5" was meant as "openai/gpt-5").
 */
export function parseModelSpec(spec: string): { provider?: ProviderName; model: string } {
  const trimmed = spec.trim();
  if (!trimmed) throw new UsageError(`no model given: ${accepted()}`);
  if (/\s/.test(trimmed)) throw new UsageError(`"${trimmed}" is not a model id (ids have no spaces): ${accepted()}`);
  const slash = trimmed.indexOf("/");
  if (slash === 0) throw new UsageError(`"${trimmed}" names no provider before the slash: ${accepted()}`);
  if (slash > 0) {
    const prefix = trimmed.slice(0, slash);
    const rest = trimmed.slice(slash + 1);
    const provider = prefix.toLowerCase();
    if (!rest) {
      if (isProviderName(provider)) throw new UsageError(`"${trimmed}" names no model: write ${provider}/<model>, e.g. ${provider}/${builtinDefault(provider)}`);
      throw new UsageError(`"${trimmed}" names no model, and ${prefix} is not a provider: ${accepted()}`);
    }
    if (isProviderName(provider)) return { provider, model: rest };
    return { model: trimmed };
  }
  const owner = providerRows().find((row) => row.ids?.pattern.test(trimmed));
  return owner ? { provider: owner.name, model: trimmed } : { model: trimmed };
}

/** What a model spec may be, for the refusals above: "… (claude-… is anthropic's, gpt-… and o… openai's, …)". */
function accepted(): string {
  const rows = providerRows();
  const owners = rows.filter((row) => row.ids).map((row, i) => `${row.ids!.shown} ${i === 0 ? "is " : ""}${row.name}'s`);
  const example = `${rows[0]!.name}/${rows[0]!.defaultModel}`;
  return `give provider/model (providers: ${rows.map((row) => row.name).join(", ")}; e.g. ${example}), or a model id alone (${[...owners, "any other stays with the current provider"].join(", ")})`;
}

/**
 * Why a parsed spec's model goes where it goes, when that is not plain from
 * the spec: "google" for "google/gemini-2.5-pro" (a prefix that is not a
 * provider), so the caller can say the id goes to the current provider as it is.
 */
export function foreignPrefix(spec: { provider?: ProviderName; model: string }): string | undefined {
  if (spec.provider) return undefined;
  const slash = spec.model.indexOf("/");
  return slash > 0 ? spec.model.slice(0, slash) : undefined;
}

/** The context window of a model the table does not know (a local server's, a new one). */
export const DEFAULT_CONTEXT_WINDOW = 128_000;

/**
 * The maximum input tokens of `model`: its row among today's models or in the
 * older models' table, the provider's first, else another provider's (a Claude
 * reached through OpenRouter's OpenAI-style API, "anthropic/claude-sonnet-4.5"),
 * else DEFAULT_CONTEXT_WINDOW.
 */
export function contextWindow(provider: ProviderName, model: string): number {
  // OpenRouter's ids carry the vendor and spell Claude versions with a dot.
  const id = model.trim().toLowerCase().replace(/^[^/]*\//, "").replace(/^(claude-[a-z]+-\d+)\.(\d)/, "$1-$2");
  const rows = providerRows();
  const own = rows.filter((row) => row.name === provider);
  for (const row of [...own, ...rows.filter((other) => !own.includes(other))]) {
    const today = builtinModel(row.name, id)?.maxInputTokens;
    if (today) return today;
    for (const [prefix, tokens] of row.windows) if (id.startsWith(prefix)) return tokens;
  }
  return DEFAULT_CONTEXT_WINDOW;
}

/**
 * AWL_CONTEXT_WINDOW, the window in tokens that overrides the table (for a
 * local server that truncates silently): a positive whole number, with an
 * optional k or m suffix ("32768", "200k", "1m", "1.5m"). Undefined when
 * unset; anything else is the person's mistake to fix.
 */
export function contextWindowFromEnv(env: Record<string, string | undefined>): number | undefined {
  const raw = env.AWL_CONTEXT_WINDOW;
  if (raw === undefined || raw.trim() === "") return undefined;
  // A fraction only with a suffix: "1.5m" is a count of tokens, "1.5" is not.
  const match = /^(\d+|\d*\.\d+(?=[km]))([km]?)$/i.exec(raw.trim().replace(/[_,]/g, ""));
  const tokens = match ? Math.round(Number(match[1]) * ({ k: 1e3, m: 1e6 }[match[2]!.toLowerCase()] ?? 1)) : NaN;
  if (!Number.isSafeInteger(tokens) || tokens <= 0) {
    throw new UsageError(`AWL_CONTEXT_WINDOW must be a number of tokens such as 32768, 200k or 1m, not "${raw}"`);
  }
  return tokens;
}
