// What awl knows about today's models without asking the provider: the
// current models of the providers' model docs, used when the provider's models
// endpoint cannot be reached (docs/architecture.md, "Models"). It goes stale:
// the catalogue (./catalogue.ts) is what awl trusts first.

import type { ModelInfo } from "./model-info";
import type { ProviderName } from "./provider";

const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`);

/**
 * The current models, newest first, as the docs give them (December 2026). An
 * OpenAI input limit is the context less the output limit where the two share
 * one window (gpt-5.5: 1.05M of context, at most 128k of it output).
 */
export const BUILTIN_MODELS: Record<ProviderName, readonly ModelInfo[]> = {
  anthropic: [
    { id: "claude-sonnet-5-5", displayName: "Claude Sonnet 5.5", created: day("2026-09-28"), maxInputTokens: 1_000_000, maxOutputTokens: 128_000 },
    { id: "claude-opus-5-5", displayName: "Claude Opus 5.5", created: day("2026-09-24"), maxInputTokens: 1_000_000, maxOutputTokens: 128_000 },
    { id: "claude-fable-5-1", displayName: "Claude Fable 5.1", created: day("2026-09-01"), maxInputTokens: 1_000_000, maxOutputTokens: 128_000 },
    { id: "claude-opus-5", displayName: "Claude Opus 5", created: day("2026-07-24"), maxInputTokens: 1_000_000, maxOutputTokens: 128_000 },
    { id: "claude-sonnet-5", displayName: "Claude Sonnet 5", created: day("2026-06-30"), maxInputTokens: 1_000_000, maxOutputTokens: 128_000 },
    { id: "claude-fable-5", displayName: "Claude Fable 5", created: day("2026-06-09"), maxInputTokens: 1_000_000, maxOutputTokens: 128_000 },
    { id: "claude-haiku-4-5", displayName: "Claude Haiku 4.5", created: day("2025-10-15"), maxInputTokens: 200_000, maxOutputTokens: 64_000 },
  ],
  openai: [
    { id: "gpt-5.5", displayName: "GPT-5.5", created: day("2026-04-23"), maxInputTokens: 922_000, maxOutputTokens: 128_000 },
    { id: "gpt-5.4-mini", displayName: "GPT-5.4 mini", created: day("2026-03-17"), maxInputTokens: 272_000, maxOutputTokens: 128_000 },
    { id: "gpt-5.4", displayName: "GPT-5.4", created: day("2026-03-05"), maxInputTokens: 922_000, maxOutputTokens: 128_000 },
  ],
};

/** Each provider's default when its catalogue cannot say: the newest of its default family in the table above. */
export const DEFAULT_MODELS: Record<ProviderName, string> = {
  anthropic: "claude-sonnet-5-5",
  openai: "gpt-5.4-mini",
};

/**
 * The table's row for `id`: the row of that id, or of the longest id it
 * starts with followed by "-" (a dated snapshot, "claude-haiku-4-5-20251001").
 */
export function builtinModel(provider: ProviderName, id: string): ModelInfo | undefined {
  let best: ModelInfo | undefined;
  for (const row of BUILTIN_MODELS[provider]) {
    const matches = id === row.id || id.startsWith(`${row.id}-`);
    if (matches && row.id.length > (best?.id.length ?? -1)) best = row;
  }
  return best;
}
