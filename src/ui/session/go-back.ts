// The REPL's ways about a session's tree: /tree (go to any entry of any
// path: the conversation; the files only when the person takes them along,
// offered when they differ from their state there), /label (name where you are). A move appends
// one `leaf` entry and removes nothing; /tree can go back to the path left,
// which may first be summarized for the model (asked, no by default: it costs
// a request). /rewind, which takes the files back too, is rewind-screen.ts.

import { confirm, isCancel, select } from "@clack/prompts";
import type { Agent } from "../../agent/agent";
import { moveTo } from "../../agent/branch";
import { previewRewind, rewindFiles } from "../../agent/rewind-files";
import { readSessionTree } from "../../session/tree";
import type { Colors } from "../render/colors";
import { oneLine } from "../render/format";
import { rewindPreview } from "../render/rewind-preview";
import { safeText } from "../render/safe-text";
import { selectRowWidth } from "./select-width";
import { TREE_FILTERS, treeRows, type TreeFilter } from "./tree";

type Out = NodeJS.WriteStream;

/** `/tree [prompts|all|labelled]`: pick an entry; the conversation goes on from it. Returns what to print. */
export async function treeScreen(agent: Agent, argument: string, c: Colors, out: Out): Promise<string> {
  const filter = (argument.trim() || "prompts") as TreeFilter;
  if (!TREE_FILTERS.includes(filter)) return c.red(`/tree shows ${TREE_FILTERS.join(", ")}: not ${safeText(argument)}.`);
  if (agent.session.messageCount() === 0) return c.dim("Nothing to go back to yet.");
  const tree = readSessionTree(agent.session.sessionFile, { text: filter === "all" });
  const width = selectRowWidth(out);
  const options = treeRows(tree, filter, width).map((row, i) => (row.node ? { value: row.node.id, label: row.text } : { value: `\0${i}`, label: row.text, disabled: true }));
  const picked = await select({
    message: `The session as a tree (${filter}; ◉ where you are, ● the path to it): pick where to go on from (Esc goes back)`,
    options,
    initialValue: tree.leafId ?? undefined,
    maxItems: Math.max(5, (out.rows || 24) - 8),
  });
  if (isCancel(picked) || picked === tree.leafId) return c.dim("Staying where you are.");
  const node = tree.byId.get(picked)!;
  // The move is of the conversation; files that differ from their state there are offered, never taken along unasked.
  const files = await previewRewind(agent.session, node.id);
  let along = false;
  if (files.steps.length) {
    out.write(`${["The files differ from their state there:", ...rewindPreview(files, agent.cwd, c)].join("\n")}\n`);
    const answer = await confirm({ message: "Take the files back there too?", initialValue: false });
    if (isCancel(answer)) return c.dim("Staying where you are.");
    along = answer;
  }
  const summarize = await confirm({ message: "Summarize the path you are leaving, for the model to read? (one request)", initialValue: false });
  if (isCancel(summarize)) return c.dim("Staying where you are.");
  if (along) {
    const done = await rewindFiles(agent.session, node.id);
    if (done.refused) return [c.yellow("Staying where you are. Nothing was changed: a file changed since awl last changed it (/rewind asks whether to overwrite it)."), ...rewindPreview(done, agent.cwd, c)].join("\n");
  }
  const move = await moveTo(agent, node.id, { summarize });
  const note = move.summaryFailed ? c.yellow(` The summary failed (${safeText(move.summaryFailed)}): moved without it.`) : move.summarized ? " The path you left is summarized for the model." : "";
  const fileNote = along ? " The files went back there too (/rewind undoes it)." : files.steps.length ? ` The files stay as they are: ${files.steps.length === 1 ? "1 differs" : `${files.steps.length} differ`} from their state there.` : " The files stay as they are (each already as there).";
  return `Went to ${node.id}${node.text ? `: ${safeText(oneLine(node.text, 60))}` : ""}. The conversation goes on from there; /tree returns to the path you left.${note}${fileNote}`;
}

/** `/label [text]`: names where you are (the leaf); with no text, removes its name. */
export function labelLeaf(agent: Agent, text: string, c: Colors): string {
  const leaf = agent.session.getLeafId();
  if (leaf === null) return c.dim("Nothing to label yet.");
  agent.session.setLabel(text.trim(), leaf);
  return text.trim() ? `Labelled ${leaf}: ${safeText(text.trim())} (/tree labelled lists labels).` : `Removed the label of ${leaf}.`;
}
