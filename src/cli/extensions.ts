// `awl extensions`: what the REPL would load here (the person's extensions, a
// trusted project's), what each registered or why it is not loaded, the hooks
// in force and whether this project is trusted; it never asks the trust
// question. `awl extensions types` writes awl.d.ts, the API's types, into the
// working directory for an extension author's editor.

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { UserError } from "../errors";
import { apiTypes } from "../extensions/api-types";
import { loadExtensions } from "../extensions/load";
import { extensionsReport } from "../extensions/report";
import { trustState, type CodeScope } from "../extensions/trust";
import { safeText } from "../ui/render/safe-text";
import type { Args } from "./args";

export async function extensions(args: Args, cwd: string): Promise<number> {
  if (args.targets[0] === "types") {
    const file = join(cwd, "awl.d.ts");
    try {
      writeFileSync(file, apiTypes(), { flag: "wx" }); // never over a file (or through a link) that is there
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      throw new UserError(`${file} exists: awl does not overwrite it (remove it to write the current types)`);
    }
    console.log(`Wrote ${safeText(file)}: import type { Awl } from "./awl" in your extension.`);
    return 0;
  }
  const scope: CodeScope = { person: !args.noExtensions, project: !args.noExtensions && (args.trust || trustState(cwd) === "trusted") };
  // Failures are reported in the listing, not said as they happen.
  const host = scope.person ? await loadExtensions(() => {}, cwd, scope) : undefined;
  console.log(extensionsReport(cwd, process.env, host, scope).map(safeText).join("\n"));
  return 0;
}
