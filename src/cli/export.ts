// `awl export ID [--md | --html | --jsonl] [-o FILE]`: to stdout unless -o.
// A file or a pipe gets the export byte for byte; a terminal gets it through
// safeText, since the session's text (a model's answer, a tool's output)
// must never drive the terminal it is read on.
import { isatty } from "node:tty";
import { safeText } from "../ui/render/safe-text";
import { exportText, JSONL_WARNING, writeNewFile } from "../ui/session/export";
import type { Args } from "./args";
import { atTerminal, pathForId } from "./open-session";

export async function exportCommand(args: Args, cwd: string): Promise<number> {
  const file = await pathForId(cwd, args.targets[0]!, { listedBy: "awl sessions", pick: atTerminal() });
  const format = args.format ?? "md";
  if (format === "jsonl") process.stderr.write(`awl: ${JSONL_WARNING}\n`);
  const text = exportText(file, format);
  if (args.output === undefined) process.stdout.write(isatty(1) ? safeText(text) : text);
  else {
    writeNewFile(args.output, text);
    process.stderr.write(`Exported to ${args.output}\n`);
  }
  return 0;
}
