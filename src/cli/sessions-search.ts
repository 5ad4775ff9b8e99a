// `awl sessions search TEXT [--all] [--json]`: the sessions whose titles,
// labels, prompts or answers hold the text, most recently active first, each
// match with its entry id and the text around it. Printed as found, so the
// first sessions show while the rest are still read. --json: one JSON object
// per match, one per line ({session, entry, title, line}). Exits 1 when
// nothing matched, as grep does, so a script can tell.
import { catalog, titleOf, activityRank, lastTimestamp, searcher, type SearchHit } from "../session/store";
import { sessionRoot } from "../session/log";
import { localDateTime, oneLine } from "../ui/render/format";
import { safeText } from "../ui/render/safe-text";
import type { Args } from "./args";
import { idLength, plural } from "./session-rows";

/** Matches shown per session; the rest are counted. */
const SHOWN = 20;
/**
 * Each block's text is garbage as soon as it is searched: a collection hint
 * after this many bytes keeps the peak near a block's worth (without it, 1 GB
 * of sessions peaked at ~105 MB). Per file, it cost 10,000 small files seconds.
 */
const COLLECT_EVERY_BYTES = 8 << 20;

export function search(args: Args, cwd: string, now = Date.now()): number {
  const text = args.targets.join(" ");
  const find = searcher(text);
  const entries = catalog(sessionRoot(), cwd, args.all).map((entry) => {
    const last = lastTimestamp(entry.path) ?? entry.created;
    return { entry, last, rank: activityRank(Date.parse(last ?? ""), Number.NaN, now) };
  });
  entries.sort((a, b) => (a.rank === b.rank ? 0 : b.rank > a.rank ? 1 : -1));
  const length = idLength(entries.map((e) => e.entry));
  let sessions = 0;
  let uncollected = 0;
  for (const { entry, last } of entries) {
    const hits: SearchHit[] = [];
    try {
      uncollected += find(entry.path, (h) => hits.push(h));
    } catch {
      continue; // vanished or unreadable: `awl sessions` says why
    }
    if (uncollected >= COLLECT_EVERY_BYTES) {
      Bun.gc(false);
      uncollected = 0;
    }
    if (!hits.length) continue;
    sessions++;
    const title = titleOf(entry.path) ?? "";
    if (args.json) {
      for (const h of hits) console.log(JSON.stringify({ session: entry.id, entry: h.entry, title, line: h.line }));
      continue;
    }
    const where = args.all && entry.cwd ? `  (${oneLine(entry.cwd, 60)})` : "";
    const rows = hits.slice(0, SHOWN).map((h) => `  ${safeText(h.entry)}  ${oneLine(h.line, 100)}`);
    if (hits.length > SHOWN) rows.push(`  … ${plural(hits.length - SHOWN, "more match", "more matches")}`);
    console.log([`${entry.id.slice(0, length)}  ${last ? localDateTime(last) : "????-??-?? ??:??"}  ${oneLine(title, 80)}${where}`, ...rows].join("\n"));
  }
  if (sessions) return 0;
  if (!args.json) console.log(`No session${args.all ? "" : " of this directory"} holds '${oneLine(text, 60)}'.`);
  return 1;
}
