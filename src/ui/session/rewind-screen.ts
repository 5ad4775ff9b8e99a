// `/rewind` and Esc Esc on an empty prompt: the person's prompts on the
// active path and the earlier rewinds, newest first, each with its time and
// the files it changed. Choosing a prompt goes back to just before it (the
// prompt comes back into the input box to be edited); choosing a rewind goes
// back to just before that rewind, which undoes it. Conversation and files go
// back together unless the person picks one; the files' preview comes first,
// and a file changed since awl last changed it is overwritten only when the
// person says yes at a question naming it (a no leaves everything as it is).

import { confirm, isCancel, select } from "@clack/prompts";
import type { Agent } from "../../agent/agent";
import { previewScope, rewindTo, type RewindScope } from "../../agent/rewind";
import { rewindPoints, type RewindPoint, readWholeLog } from "../../session/tree";
import type { Colors } from "../render/colors";
import { age, clockTime, fitWidth, oneLine } from "../render/format";
import { selectRowWidth } from "./select-width";
import { goesToText, listed, refusedPaths, rewindPreview, shownPath } from "../render/rewind-preview";

type Out = NodeJS.WriteStream;

const STAY = "Staying where you are.";

/** Returns what to print, and the prompt to put back in the input box. */
export async function rewindScreen(agent: Agent, c: Colors, out: Out): Promise<{ output: string; prompt?: string }> {
  const session = agent.session;
  const points = session.messageCount() === 0 ? [] : rewindPoints(readWholeLog(session.sessionFile), session.getLeafId());
  if (!points.length) return { output: c.dim("No prompt to go back to yet.") };
  const width = selectRowWidth(out);
  const picked = await select({
    message: "Go back to before which prompt, or undo which rewind? (Esc stays)",
    options: points.map((point, i) => ({ value: i, label: pointLabel(point, whenShown(points, point), session.cwd, width, c) })),
    maxItems: Math.max(5, (out.rows || 24) - 8),
  });
  if (isCancel(picked)) return { output: c.dim(STAY) };
  const point = points[picked]!;
  const scope = await select<RewindScope>({
    message: "What goes back?",
    options: [
      { value: "both", label: "the conversation and the files" },
      { value: "conversation", label: "the conversation only" },
      { value: "files", label: "the files only" },
    ],
    initialValue: "both",
  });
  if (isCancel(scope)) return { output: c.dim(STAY) };
  const preview = await previewScope(session, point.targetId, { scope });
  if (scope !== "conversation") out.write(`${["The files:", ...rewindPreview(preview, session.cwd, c)].join("\n")}\n`);
  const force = new Set<string>();
  for (const path of refusedPaths(preview)) {
    const answer = await confirm({ message: `${shownPath(path, session.cwd)} changed since awl last changed it: overwrite it anyway?`, initialValue: false });
    if (isCancel(answer)) return { output: c.dim(STAY) };
    // A file kept as it is would leave the rewind half done: the session stays where it is instead.
    if (!answer) return { output: c.dim(`${STAY} Nothing was changed: ${shownPath(path, session.cwd)} stays as it is.`) };
    force.add(path);
  }
  const go = await confirm({ message: point.kind === "prompt" ? "Go back to before that prompt?" : "Undo that rewind?", initialValue: true });
  if (isCancel(go) || !go) return { output: c.dim(STAY) };
  const done = await rewindTo(session, point.targetId, { scope, force });
  if (done.refused) return { output: [c.yellow(`${STAY} Nothing was changed: a file changed again since the question.`), ...rewindPreview(done, session.cwd, c)].join("\n") };
  if (scope !== "files") await agent.moved("rewind", new AbortController().signal);
  const files = scope === "conversation" ? ["The files stay as they are."] : ["The files:", ...rewindPreview(done, session.cwd, c)];
  const said = scope === "files" ? "The files went back; the conversation goes on where it was." : point.kind === "prompt" ? "Went back to before that prompt." : `Undid that rewind: ${goesToText(point)}.`;
  const output = [`${said} /rewind lists this rewind too, to undo it.`, ...files].join("\n");
  return point.kind === "prompt" && scope !== "files" ? { output, prompt: point.text } : { output };
}

/**
 * When a row happened: its age ("3 min ago"), or its clock time when another
 * row shows the same age (two rewinds a minute ago would look alike).
 */
function whenShown(points: readonly RewindPoint[], point: RewindPoint): string {
  const shown = age(point.time);
  return points.some((other) => other !== point && age(other.time) === shown) ? clockTime(point.time) : shown;
}

/** `3 min ago    fix the date parser  src/date.ts, test/date.test.ts`, within `width` columns: the files give way first, to half the room. */
function pointLabel(point: RewindPoint, when: string, cwd: string, width: number, c: Colors): string {
  const start = `${when.padEnd(12)} `;
  const room = Math.max(1, width - Bun.stringWidth(start));
  const files = point.files.length ? `  ${listed(point.files, cwd)}` : "";
  const filesRoom = Math.min(Bun.stringWidth(files), Math.floor(room / 2));
  const what = oneLine(point.kind === "prompt" ? point.text : `↶ undo this rewind: ${goesToText(point, room)}`, room - filesRoom);
  const left = room - Bun.stringWidth(what);
  const shown = left > 1 ? fitWidth(files, left) : "";
  return `${start}${point.kind === "prompt" ? what : c.yellow(what)}${c.dim(shown)}`;
}
