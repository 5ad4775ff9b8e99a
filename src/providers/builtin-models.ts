// What awl knows about today's models without asking the provider: each row's
// `models` (registry.ts), the current models of the providers' docs, used
// when the provider's models endpoint cannot be reached (docs/architecture.md,
// "Models"). It goes stale: the catalogue (./catalogue.ts) is what awl trusts first.

import type { ModelInfo } from "./model-info";
import type { ProviderName } from "./provider";
import { findProvider } from "./registry";

/** The provider's built-in models, newest first (none for a provider awl does not know). */
export function builtinModels(provider: ProviderName): readonly ModelInfo[] {
  return findProvider(provider)?.models ?? [];
}

/**
 * The table's row for `id`: the row of that id, or of the longest id it
 * starts with followed by "-" (a dated snapshot, "claude-haiku-4-5-20251001").
 */
export function builtinModel(provider: ProviderName, id: string): ModelInfo | undefined {
  let best: ModelInfo | undefined;
  for (const row of builtinModels(provider)) {
    const matches = id === row.id || id.startsWith(`${row.id}-`);
    if (matches && row.id.length > (best?.id.length ?? -1)) best = row;
  }
  return best;
}
