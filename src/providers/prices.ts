// What models cost, in US dollars per million tokens: each provider's row
// holds its own prices (registry.ts), from its pricing pages. Used by
// `awl sessions stats` for cost and by session titles to pick the provider's
// cheapest current model. A model not in its row is counted in tokens only.
// Ids match by prefix, so dated snapshots (claude-haiku-4-5-20251001) are found.

import { findProvider } from "./registry";

export interface Price {
  /** Uncached input. */
  input: number;
  output: number;
  cacheRead: number;
  /** Prompt-cache writes (Anthropic: the default 5-minute cache). */
  cacheWrite: number;
  /** The provider's page calls the model deprecated or retired: never chosen for new work. */
  deprecated?: true;
}

/** The table's entry for a model: the longest id that the model's id is, or starts with followed by `-` (a dated snapshot). */
export function priceOf(provider: string, model: string): Price | undefined {
  const table = findProvider(provider)?.prices ?? {};
  let best: string | undefined;
  for (const id of Object.keys(table)) {
    if ((model === id || model.startsWith(`${id}-2`)) && (!best || id.length > best.length)) best = id;
  }
  return best === undefined ? undefined : table[best];
}

/** The provider's cheapest model that is not deprecated (by input plus output price). */
export function cheapestModel(provider: string): string | undefined {
  const current = Object.entries(findProvider(provider)?.prices ?? {}).filter(([, p]) => !p.deprecated);
  current.sort(([, a], [, b]) => a.input + a.output - (b.input + b.output));
  return current[0]?.[0];
}

/** Dollars for one usage: each kind of token at its own price. */
export function costOf(price: Price, u: { input: number; output: number; cacheRead?: number; cacheWrite?: number }): number {
  return (u.input * price.input + u.output * price.output + (u.cacheRead ?? 0) * price.cacheRead + (u.cacheWrite ?? 0) * price.cacheWrite) / 1_000_000;
}
