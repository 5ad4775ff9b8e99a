// The terminal list of `awl sessions` and of /resume in the REPL: this
// directory's sessions, most recently active first as --resume ranks them
// (session/recent.ts), each with its id (the shortest unique prefix), how long
// ago it was last active, its size and its first prompt. Enter picks one to
// resume; Esc or Ctrl+C leaves.

import { isCancel, select } from "@clack/prompts";
import type { SessionInfo } from "../../session/listing";
import { newestFirst } from "../../session/recent";
import { colorsFor } from "../render/colors";
import { age, fitWidth, oneLine } from "../render/format";
import { safeText } from "../render/safe-text";

export interface PickOptions {
  /** The session open in this REPL: listed, but not offered. */
  current?: string;
  /** What Esc does, for the question: "leaves", "goes back". */
  escape?: string;
  now?: number;
}

const HINT = "open here";

export async function pickSession(list: SessionInfo[], idLength: number, options: PickOptions = {}): Promise<string | undefined> {
  const c = colorsFor(process.stdout);
  const now = options.now ?? Date.now();
  const width = (process.stdout.columns || 100) - 6; // select's "│  ● " before each label, and a column to spare
  const choice = await select({
    message: `Sessions in ${safeText(process.cwd())}, most recent first: pick one to resume (Esc ${options.escape ?? "leaves"})`,
    options: newestFirst(list, now).map((s) => {
      const current = s.id === options.current;
      const text = label(s, idLength, current ? width - HINT.length - 3 : width, c, now);
      return { value: s.id, disabled: Boolean(s.damaged) || current, label: text, ...(current ? { hint: HINT } : {}) };
    }),
    maxItems: 12,
  });
  return isCancel(choice) ? undefined : choice;
}

/** `019dc5ba-7  3 min ago      14 msgs  fix the failing date test…`, cut to `width` columns (the title, else the first prompt, gives way). */
export function sessionLabel(s: SessionInfo, idLength: number, width: number, now = Date.now()): string {
  return label(s, idLength, width, undefined, now);
}

function label(s: SessionInfo, idLength: number, width: number, c: ReturnType<typeof colorsFor> | undefined, now: number): string {
  const id = safeText(s.id.slice(0, idLength));
  const when = age(s.lastActivity ?? s.modified, now).padEnd(12);
  const size = s.damaged ? "damaged " : `${String(s.messageCount).padStart(4)} msgs`;
  const head = [id, when, size].join("  ");
  const about = s.title ?? s.firstPrompt;
  const rest = s.damaged ? s.damaged : about ? about : "(no prompt)";
  const room = Math.max(10, width - Bun.stringWidth(head) - 2);
  const tail = fitWidth(oneLine(rest, room), room);
  if (!c) return `${head}  ${tail}`;
  return [c.bold(id), c.dim(when), s.damaged ? c.red(size) : size, s.damaged || !about ? c.dim(tail) : tail].join("  ");
}
