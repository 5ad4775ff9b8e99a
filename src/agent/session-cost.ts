// What a session has cost, by the one price table (providers/prices.ts) that
// `awl sessions stats` uses too: every usage the session file records
// (answers, compaction summaries, titles), each model's tokens at its own
// prices, cache reads and writes apart. A model without a known price is
// named, never counted as $0. Read from the file, so the usage line, /session
// and stats agree to the cent.

import { costOf, priceOf } from "../providers/prices";
import { SessionUsage, type ModelTotals } from "../session/store";

export interface PricedTotals {
  models: (ModelTotals & { cost: number | null })[];
  /** The priced models' sum; null when none has a price. */
  cost: number | null;
  /** `provider/model` of each model without a price. */
  unpriced: string[];
}

export function priceTotals(totals: readonly ModelTotals[]): PricedTotals {
  const models = totals.map((m) => {
    const price = priceOf(m.provider, m.model);
    return { ...m, cost: price ? costOf(price, m) : null };
  });
  const priced = models.filter((m) => m.cost !== null);
  return {
    models,
    cost: priced.length ? priced.reduce((sum, m) => sum + m.cost!, 0) : null,
    unpriced: models.filter((m) => m.cost === null).map((m) => `${m.provider}/${m.model}`),
  };
}

/** Each session file's running totals: read whole once, then only what was appended (usage-totals.ts). */
const running = new Map<string, SessionUsage>();

/** The cost of every request the session's file records (none yet: no file, nothing spent). */
export function sessionCost(sessionFile: string): PricedTotals {
  let usage = running.get(sessionFile);
  if (!usage) running.set(sessionFile, (usage = new SessionUsage(sessionFile)));
  return priceTotals(usage.models());
}

/** "$0.0123" under a dollar, "$4.56" above. */
export function dollars(cost: number): string {
  return `$${cost.toFixed(cost < 1 ? 4 : 2)}`;
}

/** The cost in a few words: "$0.0123", "at least $0.0123 (no price known for x)", "— (no price known for x)"; undefined before any request. */
export function costText(priced: PricedTotals): string | undefined {
  if (priced.models.length === 0) return undefined;
  const unknown = priced.unpriced.length ? ` (no price known for ${priced.unpriced.join(", ")})` : "";
  if (priced.cost === null) return `—${unknown}`;
  return `${unknown ? "at least " : ""}${dollars(priced.cost)}${unknown}`;
}

/** A request --max-cost kept from going: what the run had spent, and the worst the request could have cost. */
export interface BudgetStop {
  spent: number;
  worstCase: number;
}

/**
 * Whether the next request could pass the run's budget: what the session
 * spent since `spentBefore` (its cost when the run began), plus the request's
 * worst case (its input, as awl estimates it, all at the uncached input price,
 * and max_tokens at the output price). Undefined when it stays within, or
 * when the model has no price (the command line refuses that case first).
 */
export function overBudget(limit: number, spentBefore: number, sessionFile: string, model: { provider: string; model: string }, inputTokens: number, maxTokens: number): BudgetStop | undefined {
  const price = priceOf(model.provider, model.model);
  if (!price) return undefined;
  const spent = (sessionCost(sessionFile).cost ?? 0) - spentBefore;
  const worstCase = costOf(price, { input: inputTokens, output: maxTokens });
  return spent + worstCase > limit ? { spent, worstCase } : undefined;
}
