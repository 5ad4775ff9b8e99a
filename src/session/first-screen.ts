// What the session picker shows before it has read every session: the files
// of this directory modified last, found from their stats alone, read whole
// (they are few). Modification time is the cheap stand-in for the last
// entry's time --resume ranks by; the picker ranks the whole list properly
// once it has read it, a moment later.
import { statSync } from "node:fs";
import { join } from "node:path";
import { describeSessions, sessionFiles, type SessionInfo } from "./listing";
import { encodeCwd, sessionRoot } from "./paths";

type Env = Record<string, string | undefined>;

/** Up to `count` sessions of `cwd` (moved ones aside), the most recently modified. */
export function lastModifiedSessions(cwd: string, count: number, env: Env = process.env): SessionInfo[] {
  const dir = join(sessionRoot(env), encodeCwd(cwd));
  const stamped = sessionFiles(dir).map((name) => ({ path: join(dir, name), modified: modifiedAt(join(dir, name)) }));
  stamped.sort((a, b) => b.modified - a.modified);
  // Folders shared by look-alike cwds are told apart by the header.
  return describeSessions(stamped.slice(0, count).map((s) => s.path), cwd).filter((s) => s.cwd === cwd);
}

function modifiedAt(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0; // gone or unreadable: the whole list says what is wrong with it
  }
}
