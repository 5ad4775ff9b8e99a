// `--resume <text>` when no id starts with the text: sessions whose title holds
// it (case-insensitive), this directory's apart from the others'. Each file's
// title is found by searching it backwards (title.ts), else its first prompt
// stands for it; no file is read whole.
import { catalog } from "./catalog";
import { titleOf } from "./glance";
import type { SessionMatch } from "./listing";
import { sessionRoot } from "../log";

type Env = Record<string, string | undefined>;

export interface TitleMatches {
  here: SessionMatch[];
  elsewhere: { id: string; cwd: string; title: string }[];
}

export function findByTitle(cwd: string, text: string, env: Env = process.env): TitleMatches {
  const needle = text.toLowerCase();
  const found: TitleMatches = { here: [], elsewhere: [] };
  for (const entry of catalog(sessionRoot(env), cwd, true)) {
    const title = titleOf(entry.path);
    if (!entry.cwd || !title?.toLowerCase().includes(needle)) continue;
    if (entry.cwd === cwd) found.here.push({ path: entry.path, id: entry.id });
    else found.elsewhere.push({ id: entry.id, cwd: entry.cwd, title });
  }
  return found;
}
