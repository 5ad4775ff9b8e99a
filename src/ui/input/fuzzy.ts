// Fuzzy matching of paths for the `@` picker: every typed character in order,
// case ignored (`dts` finds src/date.ts). The best first: a match inside the
// file's name over one spread across folders, characters together over
// characters apart, then shorter paths. Words typed with spaces between them
// must each match.

/** A score for `path` against `query` (higher is better), or undefined when it does not match. */
export function fuzzyScore(path: string, query: string): number | undefined {
  let total = 0;
  for (const word of query.toLowerCase().split(/\s+/).filter(Boolean)) {
    const score = wordScore(path.toLowerCase(), word, path.lastIndexOf("/") + 1);
    if (score === undefined) return undefined;
    total += score;
  }
  return total - path.length / 1000;
}

function wordScore(path: string, word: string, nameStart: number): number | undefined {
  let score = 0;
  let at = 0;
  let previous = -2;
  for (const char of word) {
    const found = path.indexOf(char, at);
    if (found === -1) return undefined;
    score += 1 + (found === previous + 1 ? 2 : 0) + (found >= nameStart ? 1 : 0) + (found === nameStart ? 2 : 0);
    previous = found;
    at = found + 1;
  }
  return score;
}

/** The `limit` best matches of `query` among `paths`, best first; with no query, the first `limit` paths. */
export function fuzzyPick(paths: readonly string[], query: string, limit: number): string[] {
  if (!query.trim()) return paths.slice(0, limit);
  const scored: { path: string; score: number }[] = [];
  for (const path of paths) {
    const score = fuzzyScore(path, query);
    if (score !== undefined) scored.push({ path, score });
  }
  return scored.sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : 1)).slice(0, limit).map((s) => s.path);
}
