// One line per session in the clean-up commands' reports: the short id, a
// date, what the session was about, and with --all the directory it is from.
import { glance, shortIdLength, type CatalogEntry } from "../session/store";
import { compactNumber, localDateTime, oneLine } from "../ui/render/format";
import { safeText } from "../ui/render/safe-text";

export interface Row {
  entry: CatalogEntry;
  /** Last entry's timestamp, else the header's: when the session was last active. */
  lastActive: string | undefined;
  /** The last entry cannot be read: its age is unknown. */
  ageUnknown: boolean;
  about: string;
}

export function rowOf(entry: CatalogEntry): Row {
  const { firstPrompt, title, lastEntry } = glance(entry.path);
  return {
    entry,
    lastActive: lastEntry ?? entry.created,
    ageUnknown: lastEntry === undefined || !Number.isFinite(Date.parse(lastEntry ?? entry.created ?? "")),
    about: oneLine(title ?? firstPrompt ?? "(no prompt)", 60),
  };
}

export const idLength = (entries: readonly { id: string }[]) => shortIdLength(entries.map((e) => e.id));

/** `019dc5ba  2025-10-29 09:12  fix the flaky test` (`  in /home/ana/shop` with --all); safe to show (the id is the header's). */
export function rowText(row: Row, length: number, all: boolean, date = row.lastActive): string {
  const where = all && row.entry.cwd ? `  in ${oneLine(row.entry.cwd, 80)}` : "";
  return `${safeText(row.entry.id.slice(0, length))}  ${date ? localDateTime(date) : "????-??-?? ??:??"}  ${row.about}${where}`;
}

/** "312 B", "1.2kB", "45.0MB". */
export const bytes = (n: number) => (n < 1000 ? `${n} B` : `${compactNumber(n)}B`);

export const plural = (n: number, word: string, many = `${word}s`) => `${n} ${n === 1 ? word : many}`;
