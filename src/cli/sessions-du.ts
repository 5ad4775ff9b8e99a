// `awl sessions du`: the space sessions take, where it goes: live sessions
// (this directory's among them), the trash, and the file checkpoints (blobs).
import { statSync } from "node:fs";
import { listBlobs } from "../session/checkpoints";
import { catalog, sessionPaths, trashRoot } from "../session/store";
import { sessionRoot } from "../session/log";
import type { Args } from "./args";
import { bytes, plural } from "./session-rows";

interface Use {
  files: number;
  bytes: number;
}

export function du(args: Args, cwd: string): number {
  const sizeOf = (paths: string[]): Use => ({ files: paths.length, bytes: paths.reduce((sum, p) => sum + fileSize(p), 0) });
  const blobs = listBlobs();
  const use = {
    sessions: sizeOf(sessionPaths(sessionRoot())),
    thisDirectory: sizeOf(catalog(sessionRoot(), cwd, false).map((e) => e.path)),
    trash: sizeOf(sessionPaths(trashRoot())),
    blobs: { files: blobs.length, bytes: blobs.reduce((sum, b) => sum + b.bytes, 0) },
  };
  if (args.json) {
    console.log(JSON.stringify({ root: sessionRoot(), ...use }, null, 2));
    return 0;
  }
  const line = (label: string, u: Use, unit: string) => `${label.padEnd(16)}${bytes(u.bytes).padStart(9)}  ${plural(u.files, unit)}`;
  console.log(
    [
      `Sessions under ${sessionRoot()}:`,
      line("sessions", use.sessions, "session"),
      line("  this directory", use.thisDirectory, "session"),
      line("trash", use.trash, "session"),
      line("blobs", use.blobs, "file checkpoint"),
      `${"total".padEnd(16)}${bytes(use.sessions.bytes + use.trash.bytes + use.blobs.bytes).padStart(9)}`,
    ].join("\n"),
  );
  return 0;
}

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}
