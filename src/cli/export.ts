// `awl export ID [--md | --html | --jsonl] [-o FILE]`: to stdout unless -o.
import { exportText, JSONL_WARNING, writeNewFile } from "../ui/session/export";
import type { Args } from "./args";
import { atTerminal, pathForId } from "./open-session";

export async function exportCommand(args: Args, cwd: string): Promise<number> {
  const file = await pathForId(cwd, args.targets[0]!, { listedBy: "awl sessions", pick: atTerminal() });
  const format = args.format ?? "md";
  if (format === "jsonl") process.stderr.write(`awl: ${JSONL_WARNING}\n`);
  const text = exportText(file, format);
  if (args.output === undefined) process.stdout.write(text);
  else {
    writeNewFile(args.output, text);
    process.stderr.write(`Exported to ${args.output}\n`);
  }
  return 0;
}
