// What a rewind will do to each file, planned from the disk: every path the
// recorded calls touched between where the session is and where it goes is
// compared with what it holds now (bytes, link text, permission bits). What
// already holds its state there is said to match; what still holds what the
// calls left (or what the last one replaced: a write that never reached the
// disk) is restored; anything else was changed since (by the person, or by
// something awl did not run) and is refused, to be overwritten only when
// forced. A path awl must not write (outside the project, behind a linked
// folder, a folder now) is refused whatever the force; what was never kept
// is not restorable. Nothing here writes.
import type { SessionManager } from "../session";
import { BlobStore, blobDir, sha256, planFiles, unkept, withChildren, type FilePlan, type FileState, type Version } from "../session/checkpoints";
import { readWholeLog } from "../session/tree";
import { gitBlobHash, GitReader, GitStopped } from "./git-read";
import { unspellable } from "./manifest";
import { ProjectDisk, type Disk, type RealPath, type Wanted } from "./project-disk";

type Env = Record<string, string | undefined>;
/** Overwrite files changed since: all of them (true), or only the paths named. */
export type Force = boolean | ReadonlySet<string>;

/** One file in a rewind's preview. */
export type FileStep =
  /** Written back: `added`/`removed` lines against what it holds now; `modes` when its permission bits change. */
  | { path: string; action: "restore"; added: number; removed: number; removes: boolean; modes?: [number, number]; forced?: boolean }
  /** Left alone: changed since the last recorded change (`forceable`), or a place awl never writes. */
  | { path: string; action: "refused"; reason: string; forceable: boolean }
  | { path: string; action: "not restorable"; reason: string };

export interface RewindFiles {
  steps: FileStep[];
  /** The paths that already hold their state at the target. */
  matching: string[];
  /** True when a file changed since was refused: then nothing is written. */
  refused: boolean;
}

/** One write a rewind will make, with what the path holds now (kept so the rewind can be undone). */
export interface PlannedWrite {
  path: string;
  /** A name that is not UTF-8: its bytes (base64), recorded again with the rewind's own entry. */
  pathBytes?: string;
  real: RealPath;
  current: Disk;
  wanted: Wanted;
}

export interface RewindPlan {
  files: RewindFiles;
  writes: PlannedWrite[];
  disk: ProjectDisk;
}

/** The repository's reader (none outside one; GitStopped when git did not answer in time) and the signal that stops its questions. */
interface Git {
  reader: GitReader | GitStopped | undefined;
  signal?: AbortSignal;
}

/** What a rewind of the files to `targetId` would do, from the disk as it is; changes nothing. */
export async function planRewind(session: SessionManager, targetId: string, o: { force?: Force; env?: Env; signal?: AbortSignal } = {}): Promise<RewindPlan> {
  const log = readWholeLog(session.sessionFile);
  if (!log.get(targetId)) throw new Error(`no entry ${targetId} in ${session.sessionFile}`);
  const [current, target] = [withChildren(log.pathTo(session.getLeafId()), log.entries), withChildren(log.pathTo(targetId), log.entries)];
  const plans = planFiles(current, target, log.entries);
  const blobs = new BlobStore(blobDir(session.sessionFile));
  // git out of time (or stopped): the files whose version is git's say so, the others are restored.
  const found = await GitReader.find(session.cwd, o.env ?? process.env, o.signal).catch((error: unknown) => {
    if (error instanceof GitStopped) return error;
    throw error;
  });
  const git: Git = { reader: found, ...(o.signal ? { signal: o.signal } : {}) };
  const disk = new ProjectDisk(found instanceof GitReader ? found.root : session.cwd, session.cwd);
  const files: RewindFiles = { steps: [], matching: [], refused: false };
  const writes: PlannedWrite[] = [];
  for (const plan of plans.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    const step = await planOne(plan, disk, blobs, git, o.force ?? false);
    if (step === "matches") files.matching.push(plan.path);
    else {
      files.steps.push(step.step);
      if (step.write) writes.push(step.write);
    }
  }
  for (const { path, reason } of unkept(current, target)) files.steps.push({ path, action: "not restorable", reason });
  files.refused = files.steps.some((s) => s.action === "refused" && s.forceable);
  return { files, writes, disk };
}

async function planOne(plan: FilePlan, disk: ProjectDisk, blobs: BlobStore, git: Git, force: Force): Promise<"matches" | { step: FileStep; write?: PlannedWrite }> {
  const { path } = plan;
  // A name that is not UTF-8 is reached by the bytes recorded of it (an older log has none: nothing says where it is).
  if (unspellable(path) && !plan.pathBytes) return { step: { path, action: "not restorable", reason: "its name is not UTF-8 and its bytes were not recorded" } };
  const placed = plan.pathBytes ? disk.placeBytes(path, plan.pathBytes) : disk.place(path);
  if ("refused" in placed) return { step: { path, action: "refused", reason: placed.refused, forceable: false } };
  const current = disk.read(placed.real);
  if (holds(plan.target, current) === true) return "matches";
  if (current.kind === "other") return { step: { path, action: "refused", reason: `it is ${current.what} now; awl replaces only files and links`, forceable: false } };
  const { version } = plan.target;
  if ("unknown" in version) return { step: { path, action: "not restorable", reason: version.unknown } };
  const wanted = await wantedOf(plan.target, current, path, blobs, git);
  if (typeof wanted === "string") return { step: { path, action: "not restorable", reason: wanted } };
  const forced = force === true || (force instanceof Set && force.has(path));
  const asLeft = holds(plan.expected, current);
  const known = asLeft === true || (plan.alsoBefore !== undefined && holds(plan.alsoBefore, current) === true) ? true : asLeft;
  if (known === undefined && !forced) {
    const why = "unknown" in plan.expected.version ? plan.expected.version.unknown : "not kept";
    return { step: { path, action: "not restorable", reason: `awl cannot tell whether it changed since: its later version was ${why.replace(/^its (new|later) version (was |is )?/, "")}` } };
  }
  if (known === false && !forced) return { step: { path, action: "refused", reason: changedSince(plan.expected, current), forceable: true } };
  const [added, removed] = lineCounts(contentOf(current), contentOf(wanted));
  const modes: [number, number] | undefined = current.kind === "file" && wanted.kind === "file" && current.mode !== wanted.mode ? [current.mode, wanted.mode] : undefined;
  const step: FileStep = { path, action: "restore", added, removed, removes: wanted.kind === "absent", ...(modes ? { modes } : {}), ...(known !== true ? { forced: true } : {}) };
  return { step, write: { path, ...(plan.pathBytes ? { pathBytes: plan.pathBytes } : {}), real: placed.real, current, wanted } };
}

/** Does the disk hold `state`? undefined when its version was not kept and so cannot be compared. */
export function holds(state: FileState, disk: Disk): boolean | undefined {
  const { version } = state;
  if ("absent" in version) return disk.kind === "absent";
  if ("unknown" in version) return undefined;
  if ("link" in version) return disk.kind === "link" && disk.text === version.link;
  if (disk.kind !== "file" || (state.mode !== null && state.mode !== disk.mode)) return false;
  if ("sha" in version) return disk.sha === version.sha;
  return gitBlobHash(disk.bytes, version.git.length) === version.git;
}

/** Why a file that is not as awl left it counts as changed since. */
function changedSince(expected: FileState, current: Disk): string {
  if (current.kind === "file" && expected.mode !== null && holds({ version: expected.version, mode: null }, current) === true) return "its permissions changed since awl last changed it";
  return "changed since awl last changed it";
}

/** What the target state puts on the disk, or why it cannot be had. A mode not known keeps the file's own, or a new file's usual one. */
async function wantedOf(state: FileState, current: Disk, path: string, blobs: BlobStore, git: Git): Promise<Wanted | string> {
  const version = state.version as Exclude<Version, { unknown: string }>;
  if ("absent" in version) return { kind: "absent" };
  if ("link" in version) return { kind: "link", text: version.link };
  const bytes = await versionBytes(version, path, blobs, git);
  if (typeof bytes === "string") return bytes;
  const mode = state.mode ?? (current.kind === "file" ? current.mode : 0o666 & ~process.umask());
  return { kind: "file", bytes, sha: "sha" in version ? version.sha : sha256(bytes), mode };
}

/** A version's bytes, or why they cannot be had. */
async function versionBytes(version: { sha: string } | { git: string }, path: string, blobs: BlobStore, { reader, signal }: Git): Promise<Buffer | string> {
  if ("sha" in version) return blobs.get(version.sha) ?? "its version is no longer in the blob store";
  if (!reader) return "its version is git's, and there is no repository here";
  try {
    if (reader instanceof GitStopped) throw reader;
    const conversion = await reader.conversion(path, signal);
    if (conversion) return `its version is git's, and ${conversion}`;
    return (await reader.blob(version.git, signal)) ?? "git no longer has its version";
  } catch (error) {
    if (error instanceof GitStopped) return `its version is git's, and ${error.message}`;
    throw error;
  }
}

/** The bytes lines are counted in: a file's, a link's text, nothing. */
function contentOf(state: Disk | Wanted): Buffer | null {
  return state.kind === "file" ? state.bytes : state.kind === "link" ? Buffer.from(state.text) : null;
}

/**
 * Lines added and removed going from `from` to `to`, as counts of lines one
 * has more of than the other. Lines are told apart by a 64-bit hash of their
 * bytes, not decoded (a rewind of 500 files spent more time making strings
 * of their lines than writing them); a collision could only shift a count.
 */
function lineCounts(from: Buffer | null, to: Buffer | null): [number, number] {
  const [a, b] = [countLines(from), countLines(to)];
  let added = 0;
  let removed = 0;
  for (const [line, n] of b) added += Math.max(0, n - (a.get(line) ?? 0));
  for (const [line, n] of a) removed += Math.max(0, n - (b.get(line) ?? 0));
  return [added, removed];
}

/** How many times each line occurs, by its hash; a final newline ends the last line, not starts another. */
function countLines(bytes: Buffer | null): Map<bigint | number, number> {
  const lines = new Map<bigint | number, number>();
  if (!bytes?.length) return lines;
  for (let start = 0; start < bytes.length; ) {
    const newline = bytes.indexOf(0x0a, start);
    const end = newline < 0 ? bytes.length : newline;
    const key = Bun.hash(bytes.subarray(start, end));
    lines.set(key, (lines.get(key) ?? 0) + 1);
    start = end + 1;
  }
  return lines;
}
