// What models cost, in US dollars per million tokens, from the providers' own
// pricing pages (platform.claude.com/docs/en/about-claude/pricing and the model
// pages of developers.openai.com, read in December 2026). Used by
// `awl sessions stats` for cost and by session titles to pick the provider's
// cheapest current model. A model not in the table is counted in tokens only.
// Ids match by prefix, so dated snapshots (claude-haiku-4-5-20251001) are found.

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

export const PRICES: Record<string, Record<string, Price>> = {
  anthropic: {
    "claude-opus-4-1": { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75, deprecated: true },
    "claude-opus-4-5": { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
    "claude-opus-4-6": { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
    "claude-opus-4-7": { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
    "claude-opus-5": { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
    "claude-sonnet-4-5": { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
    "claude-sonnet-4-6": { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
    "claude-haiku-4-5": { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 },
  },
  openai: {
    "gpt-5": { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 1.25 },
    "gpt-5-mini": { input: 0.25, output: 2, cacheRead: 0.025, cacheWrite: 0.25 },
    "gpt-5-nano": { input: 0.05, output: 0.4, cacheRead: 0.005, cacheWrite: 0.05, deprecated: true },
    "gpt-5.4-nano": { input: 0.2, output: 1.25, cacheRead: 0.02, cacheWrite: 0.2, deprecated: true },
    "gpt-5.6-luna": { input: 0.2, output: 1.2, cacheRead: 0.02, cacheWrite: 0.25 },
  },
};

/** The table's entry for a model: the longest id that the model's id is, or starts with followed by `-` (a dated snapshot). */
export function priceOf(provider: string, model: string): Price | undefined {
  const table = PRICES[provider] ?? {};
  let best: string | undefined;
  for (const id of Object.keys(table)) {
    if ((model === id || model.startsWith(`${id}-2`)) && (!best || id.length > best.length)) best = id;
  }
  return best === undefined ? undefined : table[best];
}

/** The provider's cheapest model that is not deprecated (by input plus output price). */
export function cheapestModel(provider: string): string | undefined {
  const current = Object.entries(PRICES[provider] ?? {}).filter(([, p]) => !p.deprecated);
  current.sort(([, a], [, b]) => a.input + a.output - (b.input + b.output));
  return current[0]?.[0];
}

/** Dollars for one usage: each kind of token at its own price. */
export function costOf(price: Price, u: { input: number; output: number; cacheRead?: number; cacheWrite?: number }): number {
  return (u.input * price.input + u.output * price.output + (u.cacheRead ?? 0) * price.cacheRead + (u.cacheWrite ?? 0) * price.cacheWrite) / 1_000_000;
}
