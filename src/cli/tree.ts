// `awl sessions tree ID [--json]`: a session's entries as the tree they form
// (every path, the active one marked), or for scripts one JSON array of
// {id, parentId, kind, role, text, label, time, active} in file order.

import { readSessionTree } from "../session/tree";
import { colorsFor } from "../ui/render/colors";
import { treeJson, treeRows } from "../ui/session/tree";
import type { Args } from "./args";
import { atTerminal, pathForId } from "./open-session";

export async function tree(args: Args, cwd: string): Promise<number> {
  const read = readSessionTree(await pathForId(cwd, args.session!, { listedBy: "awl sessions", pick: atTerminal() }));
  // console.log, not process.stdout: see main.ts (start-up cost).
  if (args.json) {
    console.log(treeJson(read));
    return 0;
  }
  const rows = treeRows(read, "all", process.stdout.columns || 100, process.stdout.isTTY ? colorsFor(process.stdout) : undefined);
  console.log(rows.map((r) => r.text).join("\n"));
  return 0;
}
