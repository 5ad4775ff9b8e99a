// How many messages a session holds: one definition wherever awl says it (the
// session picker, `awl sessions`, /session, the line on leaving a session).
// It is every message entry of the session's file: the system prompt, each
// prompt, each answer, each message of tool results, compacted or not. The
// session open in awl may know fewer: resumed from the tail of a compacted
// file, it never read what lies before (session/log/tail.ts); so the count comes
// from the file, read as awl sessions reads it.

import { describeSessions } from "../../session";

/** The message entries of the session file at `path` (0 when it does not exist yet, or cannot be read). */
export function messagesInFile(path: string, cwd: string): number {
  return describeSessions([path], cwd)[0]?.messageCount ?? 0;
}
