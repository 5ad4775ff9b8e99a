// The terminal list of `awl sessions`: pick one to resume, Esc/Ctrl+C leaves.

import { isCancel, select } from "@clack/prompts";
import type { SessionInfo } from "../session/listing";
import { colorsFor } from "./colors";
import { age, localDateTime, oneLine } from "./format";
import { safeText } from "./safe-text";

export async function pickSession(list: SessionInfo[], idLength: number): Promise<string | undefined> {
  const c = colorsFor(process.stdout);
  const newestFirst = [...list].reverse();
  const choice = await select({
    message: `Sessions in ${safeText(process.cwd())} — pick one to resume (Esc leaves)`,
    options: newestFirst.map((s) => ({
      value: s.id,
      disabled: Boolean(s.damaged),
      label: [
        c.bold(safeText(s.id.slice(0, idLength))),
        localDateTime(s.created),
        c.dim(age(s.lastActivity ?? s.modified).padEnd(12)),
        s.damaged ? c.red("damaged") : `${String(s.messageCount).padStart(4)} msgs`,
        s.damaged ? c.dim(oneLine(s.damaged, 50)) : oneLine(s.firstPrompt ?? "", 50),
      ].join("  "),
    })),
    maxItems: 12,
  });
  return isCancel(choice) ? undefined : choice;
}
