// The blob store of file checkpoints: each version of a file a tool changed,
// named by the SHA-256 of its bytes, in `<sessions root>/.blobs/` (beside the
// per-directory folders, so moving the root moves them too). A version is
// stored once however many sessions or calls hold it. Files are 0600 in a
// 0700 folder, written whole or not at all (src/private-file.ts): a blob that
// exists is whole. This module is the only one that writes there (blobs.ts only
// deletes those no session needs any more); the session
// file's own writer is manager.ts.
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { mkdirPrivate, writeFileAtomic } from "../../private-file";

/** The blob folder of the sessions root a session file lives in (`<root>/<cwd folder>/<file>`). */
export function blobDir(sessionFile: string): string {
  return join(dirname(dirname(sessionFile)), ".blobs");
}

export function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

export class BlobStore {
  constructor(readonly dir: string) {}

  /** Stores `bytes` (unless a blob of them is already there) and returns their hash. */
  put(bytes: Uint8Array, hash = sha256(bytes)): string {
    const path = this.path(hash);
    if (existsSync(path)) return hash;
    mkdirPrivate(this.dir);
    writeFileAtomic(path, bytes);
    return hash;
  }

  /** The bytes of a blob; undefined when it is not stored (or not whole: its bytes do not hash to its name). */
  get(hash: string): Buffer | undefined {
    let bytes: Buffer;
    try {
      bytes = readFileSync(this.path(hash));
    } catch {
      return undefined;
    }
    return sha256(bytes) === hash ? bytes : undefined;
  }

  path(hash: string): string {
    if (!/^[0-9a-f]{64}$/.test(hash)) throw new Error(`not a blob name: ${hash}`);
    return join(this.dir, hash);
  }
}
