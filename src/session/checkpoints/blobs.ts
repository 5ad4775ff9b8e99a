// Collecting file checkpoints no session needs any more. Blobs live in
// `<sessions root>/.blobs/`, named by the SHA-256 (hex) of their bytes, and are
// referred to by the entries of the kinds whose row in the kind table says so
// (`file_change`, `bash_effects`). A blob is deleted
// only when no line of those kinds, in any session or trashed session under
// the root (every project: forks share blobs across folders), names its hash,
// and it is more than an hour old (a `file_change` may be on its way: the
// blob is stored before its entry is written). A session that cannot be read
// stops the collection: what it refers to cannot be known.
import { closeSync, fstatSync, openSync, readdirSync, statSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { UserError } from "../../errors";
import { fsReason, kindsWhere, scanLines, startsWith, sessionRoot } from "../log";

type Env = Record<string, string | undefined>;

export const blobsRoot = (env: Env = process.env) => join(sessionRoot(env), ".blobs");
/** A blob written less than this long ago is kept whatever refers to it. */
export const YOUNG_BLOB_MS = 60 * 60_000;

const HASH = /^[0-9a-f]{64}$/;
const HASHES = /[0-9a-f]{64}/g;
/** Line heads of the kinds whose lines name blobs (the kind table's `purge`). */
const HEADS = kindsWhere("purge", "keeps its blobs").map((kind) => Buffer.from(`{"type":"${kind}"`));

export interface Blob {
  path: string;
  hash: string;
  bytes: number;
  modifiedMs: number;
}

/** Every blob file under the blobs folder (nested folders included, should a layout ever fan out). */
export function listBlobs(env: Env = process.env): Blob[] {
  const root = blobsRoot(env);
  let names: string[];
  try {
    names = readdirSync(root, { recursive: true, encoding: "utf8" });
  } catch {
    return [];
  }
  const blobs: Blob[] = [];
  for (const name of names) {
    const hash = name.slice(name.lastIndexOf("/") + 1);
    if (!HASH.test(hash)) continue;
    const path = join(root, name);
    try {
      const stat = statSync(path);
      if (stat.isFile()) blobs.push({ path, hash, bytes: stat.size, modifiedMs: stat.mtimeMs });
    } catch {
      // gone meanwhile
    }
  }
  return blobs;
}

/** The hashes the checkpoint entries of these session files name. */
export function referencedHashes(paths: readonly string[]): Set<string> {
  const found = new Set<string>();
  const block = Buffer.allocUnsafe(1 << 20);
  for (const path of paths) {
    let fd: number | undefined;
    try {
      fd = openSync(path, "r");
      scanLines(
        fd,
        0,
        fstatSync(fd).size,
        ({ bytes }) => {
          if (!HEADS.some((head) => startsWith(bytes, head))) return;
          for (const [hash] of Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1").matchAll(HASHES)) found.add(hash);
        },
        (number) => {
          throw new Error(`line ${number} is too long to read`);
        },
        block,
      );
    } catch (error) {
      throw new UserError(`no blob was deleted: cannot read ${path} to learn which blobs it needs (${fsReason(error)})`);
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }
  return found;
}

export interface Collected {
  deleted: Blob[];
  /** Unreferenced but younger than an hour: kept this time. */
  young: number;
  kept: number;
}

/** Deletes the blobs that `sessions` (every session and trashed session under the root) do not name; `dryRun` only counts them. */
export function collectBlobs(sessions: readonly string[], env: Env = process.env, now = Date.now(), dryRun = false): Collected {
  const blobs = listBlobs(env);
  if (!blobs.length) return { deleted: [], young: 0, kept: 0 };
  const needed = referencedHashes(sessions);
  const result: Collected = { deleted: [], young: 0, kept: 0 };
  for (const blob of blobs) {
    if (needed.has(blob.hash)) result.kept++;
    else if (now - blob.modifiedMs < YOUNG_BLOB_MS) result.young++;
    else if (dryRun) result.deleted.push(blob);
    else {
      try {
        unlinkSync(blob.path);
        result.deleted.push(blob);
      } catch (error) {
        throw new UserError(`cannot delete blob ${blob.path}: ${fsReason(error)}`);
      }
    }
  }
  return result;
}

