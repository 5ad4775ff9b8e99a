// The files as the log's checkpoints left them at any entry: "the state at
// ENTRY" is what the file_change and bash_effects entries on the path up to
// and including ENTRY made of each file they touched: its bytes (or link
// text) and its permission bits. Pure: it reads entries, never the disk.
import { wrappedEntry, type BashEffectsEntry, type FileChangeEntry, type PathEffect, type SessionEntry } from "../log";

/** One version of a file: a blob, git's object of a clean tracked file, a symbolic link's target text, absent, or not kept (and why). */
export type Version = { sha: string } | { git: string } | { link: string } | { absent: true } | { unknown: string };

/** A version and the permission bits that go with it (null: not known, or no file). */
export interface FileState {
  version: Version;
  mode: number | null;
}

/** What one checkpoint entry says of one file (and, for a name that is not UTF-8, its bytes in base64). */
interface Touch {
  before: FileState;
  after: FileState;
  pathBytes?: string;
}

/** Where a file is to go, and what it should hold now if nothing but the recorded calls changed it. */
export interface FilePlan {
  path: string;
  target: FileState;
  /** The state the last recorded change left; `alsoBefore`: the one it replaced (a write that never reached the disk leaves that). */
  expected: FileState;
  alsoBefore?: FileState;
  /** A name that is not UTF-8: `path` as UTF-8 reads it, and its bytes (base64), which are what is written. */
  pathBytes?: string;
}

/**
 * Permission bits only: a set-uid, set-gid or sticky bit (or a file type) in
 * a log, crafted or not, never reaches the disk.
 */
const bits = (mode: number | null | undefined): number | null => (mode === null || mode === undefined ? null : mode & 0o777);

const version = (hash: string | null | undefined, otherwise: Version): Version => (hash === null ? { absent: true } : hash === undefined ? otherwise : { sha: hash });

/**
 * A path with, after each entry on it, the child entries hanging off it (the
 * children of its `task` calls, docs/subagents.md): what a child changed is
 * part of the state at every entry after its call.
 */
export function withChildren(path: readonly SessionEntry[], all: readonly SessionEntry[]): SessionEntry[] {
  const on = new Set(path.map((entry) => entry.id));
  const children = Map.groupBy(
    all.filter((entry) => entry.type === "child" && entry.parentId !== null && on.has(entry.parentId)),
    (entry) => entry.parentId!,
  );
  return path.flatMap((entry) => [entry, ...(children.get(entry.id) ?? [])]);
}

/** Every file one checkpoint entry (or a child's, in its wrapper) touched, with its states; empty for any other entry. */
export function touches(entry: SessionEntry): Map<string, Touch> {
  if (entry.type === "child") {
    const wrapped = wrappedEntry(entry);
    return wrapped ? touches(wrapped) : new Map();
  }
  const out = new Map<string, Touch>();
  if (entry.type === "file_change") out.set(entry.path, { ...fileChangeTouch(entry), ...(entry.pathBytes ? { pathBytes: entry.pathBytes } : {}) });
  else if (entry.type === "bash_effects") {
    const why = (path: string) => ({ unknown: entry.untracked.find((u) => u.path === path)?.reason ?? "not kept" });
    for (const kind of ["created", "modified", "deleted"] as const) {
      for (const p of effectsOf(entry, kind)) out.set(p.path, { ...effectTouch(p, kind, why(p.path)), ...(p.pathBytes ? { pathBytes: p.pathBytes } : {}) });
    }
  }
  return out;
}

function fileChangeTouch(e: FileChangeEntry): Touch {
  const before = e.linkBefore !== undefined ? { link: e.linkBefore } : version(e.before, { absent: true });
  const after = e.linkAfter !== undefined ? { link: e.linkAfter } : version(e.after, { absent: true });
  // Before `modeAfter` was written, a write kept the mode of the file it replaced.
  const modeAfter = e.modeAfter !== undefined ? e.modeAfter : e.before !== null && e.after !== null ? e.mode : null;
  return { before: { version: before, mode: bits(e.mode) }, after: { version: after, mode: bits(modeAfter) } };
}

function effectTouch(p: PathEffect, kind: "created" | "modified" | "deleted", unknown: Version): Touch {
  // Before `modeAfter` was written, `mode` was the mode after a creation or a change (and before a deletion).
  const older = p.modeAfter === undefined && kind !== "deleted";
  const modeBefore = older ? null : bits(p.mode);
  const modeAfter = older ? bits(p.mode) : bits(p.modeAfter);
  const before: Version =
    kind === "created" ? { absent: true } : p.linkBefore !== undefined ? { link: p.linkBefore } : p.before !== undefined ? version(p.before, unknown) : p.git ? { git: p.git } : unknown;
  const after: Version = kind === "deleted" ? { absent: true } : p.linkAfter !== undefined ? { link: p.linkAfter } : version(p.after, unknown);
  return { before: { version: before, mode: modeBefore }, after: { version: after, mode: modeAfter } };
}

function effectsOf(entry: BashEffectsEntry, kind: "created" | "modified" | "deleted"): PathEffect[] {
  return entry[kind];
}

/**
 * For every file touched on either path past where they part: the state at
 * the end of `target` and the one the disk should hold now. A file neither
 * path touched after they part is where both want it. What the disk should
 * hold is what awl last left there, in the file's order (`all`, every entry):
 * a move of the conversation alone leaves the files of the path it left, and
 * a later rewind must know them. So a file awl last left otherwise than the
 * target wants (changed on another path, not on either of these) is planned
 * too.
 */
export function planFiles(current: readonly SessionEntry[], target: readonly SessionEntry[], all: readonly SessionEntry[] = current): FilePlan[] {
  const common = parting(current, target);
  const onTarget = history(target);
  const onCurrent = history(current);
  const everywhere = history(all);
  const changedAfter = new Set([...history(current.slice(common)).keys(), ...history(target.slice(common)).keys()]);
  const plans: FilePlan[] = [];
  for (const path of new Set([...changedAfter, ...everywhere.keys()])) {
    const t = onTarget.get(path);
    const c = onCurrent.get(path);
    // Untouched on one side: that side's state is what the other's first change found (or the first change anywhere).
    const targetState = t ? t.at(-1)!.after : (c ?? everywhere.get(path)!)[0]!.before;
    const last = everywhere.get(path)?.at(-1) ?? c?.at(-1);
    const expected = last ? last.after : t![0]!.before;
    if (!changedAfter.has(path) && sameState(targetState, expected)) continue;
    const pathBytes = everywhere.get(path)?.findLast((touch) => touch.pathBytes)?.pathBytes;
    plans.push({ path, target: targetState, expected, ...(last ? { alsoBefore: last.before } : {}), ...(pathBytes ? { pathBytes } : {}) });
  }
  return plans;
}

/**
 * What awl saw change but could not keep, on either path past where they
 * part, and why: a path a command's entry names only as not kept (tracking
 * stopped there, for one), which no plan covers.
 */
export function unkept(current: readonly SessionEntry[], target: readonly SessionEntry[]): { path: string; reason: string }[] {
  const common = parting(current, target);
  const out = new Map<string, string>();
  for (const read of [...current.slice(common), ...target.slice(common)]) {
    const entry = read.type === "child" ? wrappedEntry(read) : read;
    if (entry?.type !== "bash_effects") continue;
    const named = touches(entry);
    for (const { path, reason } of entry.untracked) if (!named.has(path) && !out.has(path)) out.set(path, reason);
  }
  return [...out].map(([path, reason]) => ({ path, reason }));
}

/** How many entries the two paths share from the root. */
function parting(current: readonly SessionEntry[], target: readonly SessionEntry[]): number {
  let common = 0;
  while (common < current.length && common < target.length && current[common] === target[common]) common++;
  return common;
}

const sameState = (a: FileState, b: FileState): boolean => a.mode === b.mode && JSON.stringify(a.version) === JSON.stringify(b.version);

/** Each file's touches along a path, in order. */
function history(path: readonly SessionEntry[]): Map<string, Touch[]> {
  const out = new Map<string, Touch[]>();
  for (const entry of path) {
    for (const [file, touch] of touches(entry)) {
      const list = out.get(file);
      if (list) list.push(touch);
      else out.set(file, [touch]);
    }
  }
  return out;
}
