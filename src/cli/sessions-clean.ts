// `awl sessions rm | restore | prune | trash | purge`: sessions leave only
// through the trash, one of these commands names every one it moves or
// deletes, and an open session is never moved. Ages are the last entry's
// timestamp (in the trash: when it was trashed), never a file's mtime. On a
// terminal, purge asks before it deletes.
import { isatty } from "node:tty";
import { UsageError, UserError } from "../errors";
import { collectBlobs, type Collected } from "../session/checkpoints";
import { catalog, pickById, sessionPaths, type CatalogEntry, deleteTrashed, moveToTrash, restoreFromTrash, trashedAt, trashRoot } from "../session/store";
import { sessionRoot } from "../session/log";
import { localDateTime } from "../ui/render/format";
import { safeText } from "../ui/render/safe-text";
import type { Args } from "./args";
import { parseDuration } from "./duration";
import { bytes, idLength, plural, rowOf, rowText } from "./session-rows";

const here = (args: Args) => (args.all ? "" : " from this directory");

/** The entries the ids name, each exactly one; an id found only in another directory says so. */
function pick(entries: CatalogEntry[], args: Args, cwd: string, base: string): CatalogEntry[] {
  const length = idLength(entries);
  return args.targets.map((id) => {
    const lower = id.toLowerCase();
    if (!args.all && !entries.some((e) => e.id.toLowerCase().startsWith(lower))) {
      const other = catalog(base, cwd, true).find((e) => e.id.toLowerCase().startsWith(lower));
      if (other) throw new UsageError(`session ${id} is not from this directory but from ${other.cwd ?? other.folder}; add --all to act on it`);
    }
    return pickById(entries, id, args.all ? "under the sessions root" : "from this directory", (e) => rowText(rowOf(e), length, true));
  });
}

export function rm(args: Args, cwd: string): number {
  const entries = catalog(sessionRoot(), cwd, args.all);
  const length = idLength(entries);
  for (const entry of pick(entries, args, cwd, sessionRoot())) {
    const row = rowOf(entry);
    moveToTrash(entry);
    console.log(`Moved ${rowText(row, length, args.all)} to the trash; awl sessions restore ${entry.id.slice(0, length)} brings it back.`);
  }
  return 0;
}

export function restore(args: Args, cwd: string): number {
  const entries = catalog(trashRoot(), cwd, args.all);
  const length = idLength(entries);
  for (const entry of pick(entries, args, cwd, trashRoot())) {
    const path = restoreFromTrash(entry);
    console.log(safeText(`Restored ${entry.id.slice(0, length)} to ${path}`)); // the id is the header's, the path has its folder
  }
  return 0;
}

export function prune(args: Args, cwd: string, now = Date.now()): number {
  const limit = parseDuration(args.olderThan!, "--older-than");
  const rows = catalog(sessionRoot(), cwd, args.all).map(rowOf);
  const length = idLength(rows.map((r) => r.entry));
  let moved = 0;
  let failed = 0;
  for (const row of rows) {
    if (row.ageUnknown) {
      console.log(`Kept ${rowText(row, length, args.all)}: the time of its last entry cannot be read`);
      continue;
    }
    if (now - Date.parse(row.lastActive!) < limit) continue;
    if (args.dryRun) {
      console.log(`Would move ${rowText(row, length, args.all)}`);
      moved++;
      continue;
    }
    try {
      moveToTrash(row.entry);
      console.log(`Moved ${rowText(row, length, args.all)}`);
      moved++;
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      console.log(`Kept ${rowText(row, length, args.all)}: ${error.message}`);
      failed++;
    }
  }
  const span = args.olderThan!.trim();
  if (!moved && !failed) console.log(`No session${here(args)} has been inactive for ${span}.`);
  else if (args.dryRun) console.log(`Would move ${plural(moved, "session")} to the trash (--dry-run: nothing was moved).`);
  else console.log(`Moved ${plural(moved, "session")} to the trash (awl sessions trash lists them, restore brings one back).`);
  return failed ? 1 : 0;
}

interface TrashedRow {
  entry: CatalogEntry;
  trashed: Date | undefined;
}

function trashedRows(args: Args, cwd: string): TrashedRow[] {
  return catalog(trashRoot(), cwd, args.all).map((entry) => ({ entry, trashed: trashedAt(entry) }));
}

export function trash(args: Args, cwd: string): number {
  const rows = trashedRows(args, cwd);
  if (args.json) {
    console.log(JSON.stringify(rows.map(({ entry, trashed }) => ({ id: entry.id, cwd: entry.cwd, path: entry.path, trashedAt: trashed?.toISOString(), lastActivity: rowOf(entry).lastActive })), null, 2));
    return 0;
  }
  if (!rows.length) {
    console.log(`The trash holds no session${here(args)}.`);
    return 0;
  }
  const length = idLength(rows.map((r) => r.entry));
  for (const { entry, trashed } of rows) console.log(`${rowText(rowOf(entry), length, args.all)}  (trashed ${trashed ? localDateTime(trashed.toISOString()) : "at an unknown time"})`);
  return 0;
}

export async function purge(args: Args, cwd: string, now = Date.now()): Promise<number> {
  const limit = args.olderThan === undefined ? undefined : parseDuration(args.olderThan, "--older-than");
  const rows = trashedRows(args, cwd);
  const length = idLength(rows.map((r) => r.entry));
  const doomed: CatalogEntry[] = [];
  for (const { entry, trashed } of rows) {
    if (limit !== undefined && (!trashed || now - trashed.getTime() < limit)) {
      if (!trashed) console.log(`Kept ${rowText(rowOf(entry), length, args.all)}: when it was trashed is not recorded`);
      continue;
    }
    doomed.push(entry);
  }
  // Deleting is the one step that cannot be undone: a person at a terminal sees what goes and says so first (a script is not asked).
  const ask = !args.dryRun && doomed.length > 0 && isatty(0) && isatty(1);
  if (ask && !(await confirmPurge(doomed, length, args))) {
    console.log("Nothing was deleted.");
    return 1;
  }
  for (const entry of doomed) {
    console.log(`${args.dryRun ? "Would delete" : "Deleted"} ${rowText(rowOf(entry), length, args.all)}`);
    if (!args.dryRun) deleteTrashed(entry);
  }
  console.log(`${args.dryRun ? "Would delete" : "Deleted"} ${plural(doomed.length, "trashed session")}${here(args)}.`);
  // Blob collection always weighs every session and trashed session under the root.
  const gone = new Set(doomed.map((e) => e.path));
  const everything = [...sessionPaths(sessionRoot()), ...sessionPaths(trashRoot())].filter((p) => !gone.has(p));
  console.log(blobReport(collectBlobs(everything, process.env, now, args.dryRun), args.dryRun));
  return 0;
}

/** Lists the sessions a purge would delete and asks; false when the person says no or leaves the question. */
async function confirmPurge(doomed: CatalogEntry[], length: number, args: Args): Promise<boolean> {
  for (const entry of doomed) console.log(`Would delete ${rowText(rowOf(entry), length, args.all)}`);
  const { confirm, isCancel } = await import("@clack/prompts");
  const answer = await confirm({ message: `Delete ${plural(doomed.length, "trashed session")} for good?`, initialValue: false });
  return !isCancel(answer) && answer;
}

function blobReport(c: Collected, dryRun: boolean): string {
  const freed = c.deleted.reduce((sum, b) => sum + b.bytes, 0);
  const young = c.young ? `; ${plural(c.young, "unreferenced blob")} less than an hour old kept` : "";
  return `${dryRun ? "Would delete" : "Deleted"} ${plural(c.deleted.length, "file checkpoint blob")} no session refers to (${bytes(freed)})${young}.`;
}
