// `awl sessions stats [--since 30d] [--all] [--json]`: sessions, the person's
// turns, and tokens per model (uncached input, cache reads, cache writes,
// output, each apart) with their cost by the price table; a model without a
// price is counted in tokens only. The totals are the exact sums of the
// entries' usage: integers, never rounded on the way.
import { dollars, priceTotals } from "../agent/session-cost";
import { catalog, usageTotals, type ModelTotals } from "../session/store";
import { sessionRoot } from "../session/log";
import type { Args } from "./args";
import { safeText } from "../ui/render/safe-text";
import { parseDuration } from "./duration";
import { plural } from "./session-rows";

const KINDS = ["input", "cacheRead", "cacheWrite", "output"] as const;

export function stats(args: Args, cwd: string, now = Date.now()): number {
  const since = args.since === undefined ? 0 : now - parseDuration(args.since, "--since");
  const paths = catalog(sessionRoot(), cwd, args.all).map((e) => e.path);
  const totals = usageTotals(paths, since);
  // The priced rows' sum; none priced, no cost at all (never a silent $0).
  const { models, cost, unpriced } = priceTotals(totals.models);
  const sum = (key: (typeof KINDS)[number] | "requests") => models.reduce((s, m) => s + m[key], 0);
  const total = { requests: sum("requests"), input: sum("input"), cacheRead: sum("cacheRead"), cacheWrite: sum("cacheWrite"), output: sum("output"), cost };
  if (args.json) {
    console.log(JSON.stringify({ since: since ? new Date(since).toISOString() : null, all: args.all, sessions: totals.sessions, turns: totals.turns, models, total, unpriced, unreadable: totals.unreadable }, null, 2));
    return 0;
  }
  const scope = `${args.all ? "every directory" : "this directory"}${args.since ? `, last ${args.since.trim()}` : ""}`;
  const lines = [`${plural(totals.sessions, "session")}, ${plural(totals.turns, "turn")} (${scope})`];
  if (models.length) {
    const rows = [["model", "requests", "input", "cache read", "cache write", "output", "cost"], ...models.map((m) => row(`${m.provider}/${m.model}`, m, m.cost)), row("total", total, total.cost, unpriced.length > 0)];
    const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
    lines.push(...rows.map((r) => r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  ")));
  }
  if (unpriced.length) lines.push(`No price known for ${unpriced.join(", ")}: tokens only, not in the total cost.`);
  if (totals.unreadable.length) lines.push(`Could not read ${plural(totals.unreadable.length, "session file")}: ${totals.unreadable.join(", ")}`);
  console.log(safeText(lines.join("\n"))); // model names and file names come from the session files
  return 0;
}

/** A table row; `partial`: some of what it adds up has no price, so its cost is a lower bound and says so. */
function row(label: string, t: Pick<ModelTotals, "requests" | (typeof KINDS)[number]>, cost: number | null, partial = false): string[] {
  const n = (x: number) => x.toLocaleString("en-US");
  const shown = cost === null ? "no price" : `${partial ? "at least " : ""}${dollars(cost)}`;
  return [label, n(t.requests), ...KINDS.map((k) => n(t[k])), cost === null && !partial ? "-" : shown];
}
