// Reading a list of models the way a person would: which family an id belongs
// to (Sonnet, Opus, gpt-…-mini), the newest of a family, the default among
// them, and the listed id a typo resembles. Pure functions over ModelInfo.

import type { ModelInfo } from "./model-info";
import type { ProviderName } from "./provider";
import { findProvider } from "./registry";

/**
 * The family an id belongs to: a Claude's name word ("claude-sonnet-5-5",
 * "claude-3-5-sonnet-20241022": sonnet); an OpenAI id without its version
 * ("gpt-5.4-mini": gpt-mini, "o4-mini": o-mini); any other id without digits.
 */
export function family(id: string): string {
  const lower = id.toLowerCase().replace(/^[^/]*\//, "");
  const claude = /^claude-(?:[\d-]*)([a-z]+)/.exec(lower);
  if (claude) return `claude-${claude[1]}`;
  return lower.replace(/[\d.]+/g, "").replace(/--+/g, "-").replace(/-$/, "");
}

/** Newest first by the provider's date; among equals (an alias and its snapshot) the shorter id. */
export function newestFirst(models: readonly ModelInfo[]): ModelInfo[] {
  return [...models].sort((a, b) => (b.created ?? 0) - (a.created ?? 0) || a.id.length - b.id.length || a.id.localeCompare(b.id));
}

/** The newest model of the provider's default family in `models` (its row's `defaultFamilies`), when it lists one. */
export function newestDefault(provider: ProviderName, models: readonly ModelInfo[]): string | undefined {
  for (const pattern of findProvider(provider)?.defaultFamilies ?? []) {
    const found = newestFirst(models.filter((m) => pattern.test(m.id)))[0];
    if (found) return found.id;
  }
  return undefined;
}

/** The newest models of `id`'s family in `models` (never `id` itself), at most `count`. */
export function newestOfFamily(models: readonly ModelInfo[], id: string, count = 3): string[] {
  const wanted = family(id);
  return newestFirst(models.filter((m) => m.id !== id && family(m.id) === wanted))
    .slice(0, count)
    .map((m) => m.id);
}

/**
 * The listed id `typed` most resembles, when it is close enough to be a typo
 * (a few letters off, "claude-sonet-5-5"), else undefined; an id that is
 * listed resembles nothing. Ids whose versions differ are other models, not
 * typos ("claude-opus-4-5" is not "claude-opus-5-5" misspelt).
 */
export function resembling(typed: string, ids: readonly string[]): string | undefined {
  if (ids.includes(typed)) return undefined;
  const limit = Math.max(2, Math.floor(typed.length / 8));
  const version = (id: string) => id.replace(/[^\d]+/g, " ").trim();
  let best: { id: string; distance: number } | undefined;
  for (const id of ids) {
    if (version(id) !== version(typed)) continue;
    const distance = editDistance(typed.toLowerCase(), id.toLowerCase(), limit);
    if (distance <= limit && (!best || distance < best.distance)) best = { id, distance };
  }
  return best?.id;
}

/** Levenshtein distance, giving up (limit + 1) once it must exceed `limit`. */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    if (Math.min(...row) > limit) return limit + 1;
    previous = row;
  }
  return previous[b.length]!;
}
