// Model names: each provider's default (so `--provider openai` alone works),
// a short list that only feeds `/model` suggestions (any id is accepted,
// DESIGN 20), and parsing of "provider/model" specs.

import { PROVIDER_NAMES, type ProviderName } from "./provider";

export const DEFAULT_MODELS: Record<ProviderName, string> = {
  anthropic: "claude-sonnet-4-5",
  openai: "gpt-5-mini",
};

export const KNOWN_MODELS: Record<ProviderName, readonly string[]> = {
  anthropic: ["claude-sonnet-4-5", "claude-opus-4-5", "claude-haiku-4-5"],
  openai: ["gpt-5", "gpt-5-mini", "gpt-5-nano", "gpt-4.1", "o4-mini"],
};

/** The provider's default model; AWL_MODEL wins when it names a model of this provider. */
export function defaultModel(provider: ProviderName, env: Record<string, string | undefined> = {}): string {
  const fromEnv = env.AWL_MODEL ? parseModelSpec(env.AWL_MODEL) : undefined;
  if (fromEnv && (fromEnv.provider ?? provider) === provider) return fromEnv.model;
  return DEFAULT_MODELS[provider];
}

export function isProviderName(name: string | undefined): name is ProviderName {
  return (PROVIDER_NAMES as readonly (string | undefined)[]).includes(name);
}

/**
 * "openai/gpt-4o" -> {provider: "openai", model: "gpt-4o"}; a bare id infers
 * its provider from well-known prefixes, otherwise leaves it to the caller
 * (the current provider: a local server's "llama3.2" stays on openai). A
 * prefix that is not a provider stays part of the id ("meta-llama/Llama-3").
 */
export function parseModelSpec(spec: string): { provider?: ProviderName; model: string } {
  const trimmed = spec.trim();
  const slash = trimmed.indexOf("/");
  if (slash > 0) {
    const prefix = trimmed.slice(0, slash);
    if (isProviderName(prefix)) return { provider: prefix, model: trimmed.slice(slash + 1) };
    return { model: trimmed };
  }
  if (/^claude/i.test(trimmed)) return { provider: "anthropic", model: trimmed };
  if (/^(gpt|o[134]\b|o[134]-|chatgpt)/i.test(trimmed)) return { provider: "openai", model: trimmed };
  return { model: trimmed };
}
