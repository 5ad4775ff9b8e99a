// The preview of a rewind's files, for /rewind and `awl rewind`: each path
// with the lines it gains and loses, what is refused because it changed
// since awl last changed it, and what cannot be restored, with the reason.

import { relative } from "node:path";
import type { FileStep, RewindFiles } from "../../agent/rewind-files";
import type { Colors } from "./colors";
import { safeText } from "./safe-text";

/** One line per file, paths relative to `cwd` where they are under it. */
export function rewindPreview(files: RewindFiles, cwd: string, c: Colors): string[] {
  if (!files.steps.length) return [c.dim("  no file to change: each already holds its state there")];
  return files.steps.map((step) => `  ${shownPath(step.path, cwd)}  ${stepText(step, c)}`);
}

/** The paths refused because they changed since. */
export function refusedPaths(files: RewindFiles): string[] {
  return files.steps.flatMap((step) => (step.action === "refused" ? [step.path] : []));
}

export function shownPath(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return safeText(rel && !rel.startsWith("..") ? rel : path);
}

function stepText(step: FileStep, c: Colors): string {
  switch (step.action) {
    case "restore": {
      const lines = `${c.green(`+${step.added}`)} ${c.red(`-${step.removed}`)}`;
      const forced = step.forced ? c.yellow(" (overwriting changes made since)") : "";
      return `${step.removes ? `${c.red("removed")} ${lines}` : lines}${forced}`;
    }
    case "refused":
      return c.yellow(`refused: ${step.reason}`);
    case "not restorable":
      return c.red(`not restorable: ${safeText(step.reason)}`);
  }
}
