// Model names: parsing of "provider/model" specs, and how many input tokens a
// model takes when neither an error, AWL_CONTEXT_WINDOW nor the provider's
// catalogue said (docs/architecture.md, "Context windows"). Today's models
// and the defaults are in builtin-models.ts; the catalogue in catalogue.ts.

import { UsageError } from "../errors";
import { builtinModel, DEFAULT_MODELS } from "./builtin-models";
import { PROVIDER_NAMES, type ProviderName } from "./provider";

export { DEFAULT_MODELS } from "./builtin-models";

/**
 * The provider's default model: AWL_MODEL when it names a model of this
 * provider, else `newest` (the catalogue's newest of the default family, when
 * there is a catalogue), else the built-in default.
 */
export function defaultModel(provider: ProviderName, env: Record<string, string | undefined> = {}, newest?: string): string {
  const fromEnv = env.AWL_MODEL ? parseModelSpec(env.AWL_MODEL) : undefined;
  if (fromEnv && (fromEnv.provider ?? provider) === provider) return fromEnv.model;
  return newest ?? DEFAULT_MODELS[provider];
}

export function isProviderName(name: string | undefined): name is ProviderName {
  return (PROVIDER_NAMES as readonly (string | undefined)[]).includes(name);
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
  if (!trimmed) throw new UsageError(`no model given: ${ACCEPTED}`);
  if (/\s/.test(trimmed)) throw new UsageError(`"${trimmed}" is not a model id (ids have no spaces): ${ACCEPTED}`);
  const slash = trimmed.indexOf("/");
  if (slash === 0) throw new UsageError(`"${trimmed}" names no provider before the slash: ${ACCEPTED}`);
  if (slash > 0) {
    const prefix = trimmed.slice(0, slash);
    const rest = trimmed.slice(slash + 1);
    const provider = prefix.toLowerCase();
    if (!rest) {
      if (isProviderName(provider)) throw new UsageError(`"${trimmed}" names no model: write ${provider}/<model>, e.g. ${provider}/${DEFAULT_MODELS[provider]}`);
      throw new UsageError(`"${trimmed}" names no model, and ${prefix} is not a provider: ${ACCEPTED}`);
    }
    if (isProviderName(provider)) return { provider, model: rest };
    return { model: trimmed };
  }
  if (/^claude/i.test(trimmed)) return { provider: "anthropic", model: trimmed };
  if (/^(gpt|o[134]\b|o[134]-|chatgpt)/i.test(trimmed)) return { provider: "openai", model: trimmed };
  return { model: trimmed };
}

/** What a model spec may be, for the refusals above. */
const ACCEPTED = `give provider/model (providers: ${PROVIDER_NAMES.join(", ")}; e.g. openai/${DEFAULT_MODELS.openai}), or a model id alone (claude-… is anthropic's, gpt-… and o… openai's, any other stays with the current provider)`;

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
 * The maximum input tokens of the models before today's (builtin-models.ts
 * has those), per the providers' model docs, matched by id prefix: the first
 * row whose prefix the id starts with wins, so the more specific rows come
 * first. Where input and output share one window the whole window is given
 * (the agent reserves room for the answer); where the input has a limit of its
 * own (gpt-5: 400k of context of which at most 272k input) that limit is.
 */
export const CONTEXT_WINDOWS: Record<ProviderName, readonly (readonly [prefix: string, tokens: number])[]> = {
  anthropic: [
    ["claude-opus-4-8", 1_000_000],
    ["claude-opus-4-7", 1_000_000],
    ["claude-opus-4-6", 1_000_000],
    ["claude-sonnet-4-6", 1_000_000],
    // Opus 4.5/4.1/4, Sonnet 4.5/4 (1M only with a beta header awl does not send), 3.7, 3.5, 3.
    ["claude-", 200_000],
  ],
  openai: [
    ["gpt-5-chat", 128_000],
    ["gpt-5.1-chat", 128_000],
    ["gpt-5.2-chat", 128_000],
    ["gpt-5.4", 922_000],
    ["gpt-5", 272_000],
    ["gpt-4.1", 1_047_576],
    ["gpt-4o", 128_000],
    ["chatgpt-4o", 128_000],
    ["gpt-4-turbo", 128_000],
    ["gpt-4", 8_192],
    ["gpt-3.5-turbo", 16_385],
    ["o1-mini", 128_000],
    ["o1-preview", 128_000],
    ["o1", 200_000],
    ["o3", 200_000],
    ["o4-mini", 200_000],
    ["gpt-oss", 131_072],
  ],
};

/**
 * The maximum input tokens of `model`: its row among today's models or in the
 * older models' table, the provider's first, else another provider's (a Claude
 * reached through OpenRouter's OpenAI-style API, "anthropic/claude-sonnet-4.5"),
 * else DEFAULT_CONTEXT_WINDOW.
 */
export function contextWindow(provider: ProviderName, model: string): number {
  // OpenRouter's ids carry the vendor and spell Claude versions with a dot.
  const id = model.trim().toLowerCase().replace(/^[^/]*\//, "").replace(/^(claude-[a-z]+-\d+)\.(\d)/, "$1-$2");
  const tables = [provider, ...PROVIDER_NAMES.filter((name) => name !== provider)];
  for (const name of tables) {
    const today = builtinModel(name, id)?.maxInputTokens;
    if (today) return today;
    for (const [prefix, tokens] of CONTEXT_WINDOWS[name]) if (id.startsWith(prefix)) return tokens;
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
