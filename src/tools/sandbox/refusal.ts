// A failed command whose output shows the sandbox's refusal: a read-only file
// system (what a write outside the writable roots meets: bwrap binds them
// read-only, so it is EROFS, not EACCES), an operation not permitted (the
// sandbox holds no capability), a network that is not there. A "permission
// denied" is the file's own permissions, the same inside and out, and says
// nothing here. The model is told, so it does not go round in circles, and
// that only the person can allow more.

import { PROTECTED, type SandboxRun } from "./bwrap";

const SIGNS: [RegExp, string][] = [
  [/read-only file system/i, "a write was refused (read-only file system)"],
  [/operation not permitted/i, "an operation was refused (operation not permitted)"],
  [/network is unreachable|connection refused|could not resolve host|temporary failure in name resolution|name or service not known|couldn't connect to server/i, "a connection was refused (no network)"],
];

/** Why the sandbox likely made this output's command fail, or undefined when nothing in it points there. */
export function sandboxRefusal(output: string, run: SandboxRun): string | undefined {
  for (const [sign, what] of SIGNS) {
    if (!sign.test(output)) continue;
    if (what.includes("connection") && run.level === "write" && run.network) continue;
    return what;
  }
  return undefined;
}

/** What the model reads under a failed command's output when the sandbox likely refused it. */
export function refusalNote(why: string, run: SandboxRun): string {
  const where =
    run.level === "no-write"
      ? "awl's sandbox with nothing writable and no network (the command was judged read-only and ran without asking the user)"
      : `awl's sandbox, where only the project folder${run.writable.length ? ", the folders the user listed" : ""} and /tmp are writable (not ${PROTECTED.join(", ")}, nor a submodule's config and hooks)${run.network ? "" : ", with no network"}`;
  return `Note: this command ran inside ${where}; ${why}, probably by the sandbox. Do not try to get around it: only the user can allow more. If the command needs it, say so to the user.`;
}
