// The preview of a rewind's files, for /rewind and `awl rewind`: each path
// with the lines it gains and loses, what is refused because it changed
// since awl last changed it, and what cannot be restored, with the reason.

import { relative } from "node:path";
import type { FileStep, RewindFiles } from "../../agent/rewind-files";
import type { RewindPoint } from "../../session/tree";
import type { Colors } from "./colors";
import { oneLine } from "./format";
import { safeText } from "./safe-text";

/** One line per file, paths relative to `cwd` where they are under it; then the files already as they were there. */
export function rewindPreview(files: RewindFiles, cwd: string, c: Colors): string[] {
  const { matching } = files;
  if (!files.steps.length) return [c.dim(`  no file to change${matching.length ? `: each already holds its state there (${listed(matching, cwd)})` : ""}`)];
  const already = matching.length ? [c.dim(`  already as there: ${listed(matching, cwd)}`)] : [];
  return [...files.steps.map((step) => `  ${shownPath(step.path, cwd)}  ${stepText(step, c)}`), ...already];
}

/** Where undoing a rewind goes: "back to after “‹prompt›”", "back to before “‹prompt›”", its words on one line of at most `width`. */
export function goesToText(point: RewindPoint, width = 60): string {
  return point.goesTo ? `back to ${point.goesTo.when} ${oneLine(`“${safeText(point.goesTo.prompt)}”`, width)}` : "back to how it was before it";
}

/** The paths refused because they changed since: what --force (or a yes) would overwrite. */
export function refusedPaths(files: RewindFiles): string[] {
  return files.steps.flatMap((step) => (step.action === "refused" && step.forceable ? [step.path] : []));
}

/** Up to three paths, then how many more. */
export function listed(paths: readonly string[], cwd: string): string {
  const shown = paths.slice(0, 3).map((path) => shownPath(path, cwd));
  return paths.length > 3 ? `${shown.join(", ")} +${paths.length - 3} more` : shown.join(", ");
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
      const modes = step.modes ? ` mode ${step.modes[0].toString(8)} → ${step.modes[1].toString(8)}` : "";
      return `${step.removes ? `${c.red("removed")} ${lines}` : lines}${modes}${forced}`;
    }
    case "refused":
      return c.yellow(`refused: ${safeText(step.reason)}`);
    case "not restorable":
      return c.red(`not restorable: ${safeText(step.reason)}`);
  }
}
