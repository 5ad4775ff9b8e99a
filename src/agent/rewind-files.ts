// Rewinding files: each file the recorded calls touched goes back to its
// state at the target entry (see session/checkpoints/file-states.ts), written as tools
// write (atomically: tools/atomic-write.ts). A file whose bytes are neither
// what the last recorded change left nor what it replaced was changed since
// (by the person, or by something awl did not run): it is refused, never
// overwritten, unless forced. The rewind records its own file_change entries
// before it writes, so a rewind can itself be undone. What cannot be restored
// (a version too large to have been kept, past the caps, gone) is listed with
// the reason, never skipped in silence.
import { chmodSync, lstatSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { dirname } from "node:path";
import type { SessionManager } from "../session";
import { BlobStore, blobDir, sha256, planFiles, sameVersion, type FilePlan, type Version } from "../session/checkpoints";
import { readWholeLog } from "../session/tree";
import { replaceFile } from "../tools/atomic-write";
import { gitBlobHash, GitReader, GitStopped } from "./git-read";

type Env = Record<string, string | undefined>;
/** Overwrite files changed since: all of them (true), or only the paths named. */
type Force = boolean | ReadonlySet<string>;

/** One file in a rewind's preview. */
export type FileStep =
  /** Written back: `added`/`removed` lines against what it holds now. */
  | { path: string; action: "restore"; added: number; removed: number; removes: boolean; forced?: boolean }
  /** Changed since the last recorded change: left alone (unless forced). */
  | { path: string; action: "refused"; reason: string }
  | { path: string; action: "not restorable"; reason: string };

export interface RewindFiles {
  steps: FileStep[];
  /** True when any file was refused because it changed since. */
  refused: boolean;
}

interface Ready {
  plan: FilePlan;
  current: Buffer | null;
  bytes: Buffer | null;
}

/** What a rewind of the files to `targetId` would do, changing nothing. */
export async function previewRewind(session: SessionManager, targetId: string, o: { force?: Force; env?: Env } = {}): Promise<RewindFiles> {
  const { steps } = await prepare(session, targetId, o);
  return { steps, refused: steps.some((s) => s.action === "refused") };
}

/**
 * Puts every file the recorded calls touched back to its state at `targetId`
 * (the files as the checkpoints on the path up to and including it left
 * them), appending a file_change entry before each write. Returns what was
 * done, refused and not restorable.
 */
export async function rewindFiles(session: SessionManager, targetId: string, o: { force?: Force; env?: Env; signal?: AbortSignal } = {}): Promise<RewindFiles> {
  const { steps, ready } = await prepare(session, targetId, o);
  const blobs = new BlobStore(blobDir(session.sessionFile));
  const signal = o.signal ?? new AbortController().signal;
  for (const { plan, current, bytes } of ready) {
    session.appendFileChange({ path: plan.path, before: current && blobs.put(current), after: bytes && blobs.put(bytes), mode: plan.mode });
    try {
      await writeBack(plan, current, bytes, signal);
    } catch (error) {
      // The entry stands: the file still holds what it replaced, which the next rewind recognises.
      const at = steps.findIndex((step) => step.path === plan.path);
      steps[at] = { path: plan.path, action: "not restorable", reason: `could not be written: ${error instanceof Error ? error.message : String(error)}` };
    }
  }
  return { steps, refused: steps.some((s) => s.action === "refused") };
}

/** Puts one file's bytes back (null: removes it), as tools write; a file the rewind creates gets its recorded mode. */
async function writeBack(plan: FilePlan, current: Buffer | null, bytes: Buffer | null, signal: AbortSignal): Promise<void> {
  if (bytes === null) return rmSync(plan.path, { force: true });
  mkdirSync(dirname(plan.path), { recursive: true });
  await replaceFile(plan.path, bytes, signal);
  if (current === null && plan.mode !== null) chmodSync(plan.path, plan.mode);
}

async function prepare(session: SessionManager, targetId: string, o: { force?: Force; env?: Env; signal?: AbortSignal }): Promise<{ steps: FileStep[]; ready: Ready[] }> {
  const log = readWholeLog(session.sessionFile);
  if (!log.get(targetId)) throw new Error(`no entry ${targetId} in ${session.sessionFile}`);
  const plans = planFiles(log.pathTo(session.getLeafId()), log.pathTo(targetId));
  const blobs = new BlobStore(blobDir(session.sessionFile));
  // git out of time: the files whose version is git's say so, the others are restored.
  const git = await GitReader.find(session.cwd, o.env ?? process.env, o.signal).catch((error: unknown) => {
    if (error instanceof GitStopped) return error;
    throw error;
  });
  const steps: FileStep[] = [];
  const ready: Ready[] = [];
  for (const plan of plans.sort((a, b) => a.path.localeCompare(b.path))) {
    // The rewind would leave it where the calls left it: whatever it holds now is the person's.
    if (sameVersion(plan.target, plan.expected)) continue;
    const current = readCurrent(plan.path);
    const { path } = plan;
    if (current === "special") {
      steps.push({ path, action: "refused", reason: "it is no longer a regular file" });
      continue;
    }
    if (matches(plan.target, current)) continue; // already as it was
    if ("unknown" in plan.target) {
      steps.push({ path, action: "not restorable", reason: plan.target.unknown });
      continue;
    }
    const bytes = await versionBytes(plan.target, path, blobs, git, o.signal);
    if (typeof bytes === "string") {
      steps.push({ path, action: "not restorable", reason: bytes });
      continue;
    }
    const force = o.force === true || (o.force instanceof Set && o.force.has(path));
    const asLeft = matches(plan.expected, current);
    const known = asLeft === true || (plan.alsoBefore !== undefined && matches(plan.alsoBefore, current) === true) ? true : asLeft;
    if (known === undefined && !force) {
      const why = "unknown" in plan.expected ? plan.expected.unknown : "not kept";
      steps.push({ path, action: "not restorable", reason: `awl cannot tell whether it changed since: its later version was ${why.replace(/^its (new|later) version (was |is )?/, "")}` });
      continue;
    }
    if (known === false && !force) {
      steps.push({ path, action: "refused", reason: "changed since awl last changed it" });
      continue;
    }
    const [added, removed] = lineCounts(current, bytes);
    steps.push({ path, action: "restore", added, removed, removes: bytes === null, ...(known !== true ? { forced: true } : {}) });
    ready.push({ plan, current, bytes });
  }
  return { steps, ready };
}

/** The file's bytes now; null when absent; "special" when it is not a regular file. */
function readCurrent(path: string): Buffer | null | "special" {
  try {
    if (!lstatSync(path).isFile()) return "special";
  } catch {
    return null;
  }
  return readFileSync(path);
}

/** Does `bytes` hold `version`? undefined when the version was not kept and so cannot be compared. */
function matches(version: Version, bytes: Buffer | null): boolean | undefined {
  if ("absent" in version) return bytes === null;
  if ("unknown" in version) return undefined;
  if (bytes === null) return false;
  if ("sha" in version) return sha256(bytes) === version.sha;
  return gitBlobHash(bytes, version.git.length) === version.git;
}

/** A version's bytes (null: absent), or why they cannot be had. */
async function versionBytes(version: Exclude<Version, { unknown: string }>, path: string, blobs: BlobStore, git: GitReader | GitStopped | undefined, signal: AbortSignal | undefined): Promise<Buffer | null | string> {
  if ("absent" in version) return null;
  if ("sha" in version) return blobs.get(version.sha) ?? "its version is no longer in the blob store";
  if (!git) return "its version is git's, and there is no repository here";
  try {
    if (git instanceof GitStopped) throw git;
    const conversion = await git.conversion(path, signal);
    if (conversion) return `its version is git's, and ${conversion}`;
    return (await git.blob(version.git, signal)) ?? "git no longer has its version";
  } catch (error) {
    if (error instanceof GitStopped) return `its version is git's, and ${error.message}`;
    throw error;
  }
}

/** Lines added and removed going from `from` to `to`, as counts of lines one has more of than the other. */
function lineCounts(from: Buffer | null, to: Buffer | null): [number, number] {
  const count = (bytes: Buffer | null) => {
    const lines = new Map<string, number>();
    for (const line of bytes ? bytes.toString("utf8").split("\n") : []) lines.set(line, (lines.get(line) ?? 0) + 1);
    if (bytes?.at(-1) === 0x0a) lines.set("", lines.get("")! - 1);
    return lines;
  };
  const [a, b] = [count(from), count(to)];
  let added = 0;
  let removed = 0;
  for (const [line, n] of b) added += Math.max(0, n - (a.get(line) ?? 0));
  for (const [line, n] of a) removed += Math.max(0, n - (b.get(line) ?? 0));
  return [added, removed];
}
