// The files as the log's checkpoints left them at any entry: "the state at
// ENTRY" is what the file_change and bash_effects entries on the path up to
// and including ENTRY made of each file they touched. Pure: it reads entries,
// never the disk.
import type { BashEffectsEntry, PathEffect, SessionEntry } from "../log";

/** One version of a file: a blob, git's object of a clean tracked file, absent, or not kept (and why). */
export type Version = { sha: string } | { git: string } | { absent: true } | { unknown: string };

/** What one checkpoint entry says of one file. */
interface Touch {
  before: Version;
  after: Version;
  /** The file's permission bits, when known. */
  mode: number | null;
}

/** Where a file is to go, and what it should hold now if nothing but the recorded calls changed it. */
export interface FilePlan {
  path: string;
  target: Version;
  /** The version the last recorded change left; `alsoBefore`: the one it replaced (a write that never reached the disk leaves that). */
  expected: Version;
  alsoBefore?: Version;
  mode: number | null;
}

const version = (hash: string | null | undefined, otherwise: Version): Version => (hash === null ? { absent: true } : hash === undefined ? otherwise : { sha: hash });

/** Every file one checkpoint entry touched, with its versions; empty for any other entry. */
export function touches(entry: SessionEntry): Map<string, Touch> {
  const out = new Map<string, Touch>();
  if (entry.type === "file_change") {
    out.set(entry.path, { before: version(entry.before, { absent: true }), after: version(entry.after, { absent: true }), mode: entry.mode });
  } else if (entry.type === "bash_effects") {
    const why = (path: string) => ({ unknown: entry.untracked.find((u) => u.path === path)?.reason ?? "not kept" });
    const before = (p: PathEffect) => (p.before !== undefined ? version(p.before, why(p.path)) : p.git ? { git: p.git } : why(p.path));
    for (const p of effectsOf(entry, "created")) out.set(p.path, { before: { absent: true }, after: version(p.after, why(p.path)), mode: p.mode ?? null });
    for (const p of effectsOf(entry, "modified")) out.set(p.path, { before: before(p), after: version(p.after, why(p.path)), mode: p.mode ?? null });
    for (const p of effectsOf(entry, "deleted")) out.set(p.path, { before: before(p), after: { absent: true }, mode: p.mode ?? null });
  }
  return out;
}

function effectsOf(entry: BashEffectsEntry, kind: "created" | "modified" | "deleted"): PathEffect[] {
  return entry[kind];
}

/**
 * For every file touched on either path past where they part: the version
 * at the end of `target` and the one `current` should have left. A file
 * neither path touched after they part is where both want it.
 */
export function planFiles(current: readonly SessionEntry[], target: readonly SessionEntry[]): FilePlan[] {
  let common = 0;
  while (common < current.length && common < target.length && current[common] === target[common]) common++;
  const onTarget = history(target);
  const onCurrent = history(current);
  const changedAfter = new Set([...history(current.slice(common)).keys(), ...history(target.slice(common)).keys()]);
  const plans: FilePlan[] = [];
  for (const path of changedAfter) {
    const t = onTarget.get(path);
    const c = onCurrent.get(path);
    // Untouched on one side: that side's state is what the other's first change found.
    const targetVersion = t ? t.at(-1)!.after : c![0]!.before;
    const last = c?.at(-1);
    const expected = last ? last.after : t![0]!.before;
    plans.push({ path, target: targetVersion, expected, ...(last ? { alsoBefore: last.before } : {}), mode: (t?.at(-1) ?? c![0]!).mode });
  }
  return plans;
}

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

export function sameVersion(a: Version, b: Version): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
