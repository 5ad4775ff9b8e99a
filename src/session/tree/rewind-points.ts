// What /rewind offers to go back to: the person's prompts on the active path
// (to just before each) and the earlier rewinds in the file (to just before
// each, which undoes it), newest first, each with the files that changed.
//
// A rewind is not an entry kind of its own; it is recognised in the file as
// what it wrote: a `leaf` entry, together with the run of `file_change`
// entries just before it that hang one from the next off the leaf of the
// moment (the files it put back), or, for a rewind of the files only, such a
// run alone. A tool call's `file_change` entries hang off the assistant
// message that made the call (or off the call's other checkpoint entries),
// never off a resting point of the conversation, which tells the two apart.
// Moves made with /tree or --at are `leaf` entries too, and are listed the
// same way: each can be undone.

import { isBookkeeping, isTarget, isPrompt, saidWords } from "../log";
import { touches, withChildren } from "../checkpoints";
import type { SessionEntry } from "../log";
import type { WholeLog } from "./whole-log";

export interface RewindPoint {
  kind: "prompt" | "rewind";
  /** The entry whose state the point goes back to: a message, compaction or branch summary. */
  targetId: string;
  time: string;
  /** A prompt's words; empty for a rewind. */
  text: string;
  /** The files the prompt's turn changed, or that the rewind put back. */
  files: string[];
  /** A rewind's undo: the prompt whose turn it goes back to the end of ("after"), or, before any turn, the first prompt it leaves out ("before"). */
  goesTo?: { when: "after" | "before"; prompt: string };
}

/** The points of `log` with the active leaf `leafId`, newest first. */
export function rewindPoints(log: WholeLog, leafId: string | null): RewindPoint[] {
  const order = new Map(log.entries.map((entry, i) => [entry, i]));
  const points: [number, RewindPoint][] = [];
  // A turn's subagents changed files too: their entries hang off its path.
  const path = withChildren(log.pathTo(leafId), log.entries);
  path.forEach((entry, i) => {
    if (!isPrompt(entry) || entry.parentId === null) return;
    const turn = path.slice(i, nextPrompt(path, i + 1));
    points.push([order.get(entry)!, { kind: "prompt", targetId: restingPoint(log, entry.parentId), time: entry.timestamp, text: saidWords(entry.message.content), files: changedFiles(turn) }]);
  });
  for (const { at, from, run } of rewinds(log)) {
    const targetId = restingPoint(log, from);
    if (targetId !== leafId) points.push([at, { kind: "rewind", targetId, time: log.entries[at]!.timestamp, text: "", files: changedFiles(run), goesTo: goesTo(log, targetId, from) }]);
  }
  return points.sort((a, b) => b[0] - a[0]).map(([, point]) => point);
}

/** Where going back to `targetId` lands, told by a prompt: after the last one on its path, else before the first one on the path left (`from`). */
function goesTo(log: WholeLog, targetId: string, from: string): RewindPoint["goesTo"] {
  const last = log.pathTo(targetId).findLast(isPrompt);
  if (last) return { when: "after", prompt: saidWords(last.message.content) };
  const first = log.pathTo(from).find(isPrompt);
  return first ? { when: "before", prompt: saidWords(first.message.content) } : undefined;
}

function nextPrompt(path: readonly SessionEntry[], from: number): number {
  for (let i = from; i < path.length; i++) if (isPrompt(path[i]!)) return i;
  return path.length;
}

function changedFiles(entries: readonly SessionEntry[]): string[] {
  return [...new Set(entries.flatMap((entry) => [...touches(entry).keys()]))];
}

/** `id` itself when the leaf can move there, else its nearest ancestor that can (the files return to that state too). */
function restingPoint(log: WholeLog, id: string): string {
  const path = log.pathTo(id);
  for (let i = path.length - 1; i >= 0; i--) if (isTarget(path[i]!)) return path[i]!.id;
  return id;
}

/** Each rewind in the file: where it ends (file position), the leaf before it, and the file_change entries it wrote. */
function rewinds(log: WholeLog): { at: number; from: string; run: SessionEntry[] }[] {
  const found: { at: number; from: string; run: SessionEntry[] }[] = [];
  const seen = new Set<string>();
  let leaf: string | null = null;
  let run: SessionEntry[] = [];
  let runFrom: string | null = null;
  const endRun = (at: number) => {
    if (run.length && runFrom !== null) found.push({ at, from: runFrom, run });
    run = [];
  };
  log.entries.forEach((entry, i) => {
    seen.add(entry.id);
    if (entry.type === "file_change" && (run.length ? entry.parentId === run.at(-1)!.id : entry.parentId !== null && resting(log.get(entry.parentId)))) {
      if (!run.length) runFrom = leaf;
      run.push(entry);
    } else if (entry.type === "leaf") {
      // The move and the files put back just before it are one rewind.
      if (seen.has(entry.targetId) && leaf !== null) found.push({ at: i, from: run.length && runFrom !== null ? runFrom : leaf, run });
      run = [];
    } else endRun(i - 1);
    if (entry.type === "leaf") leaf = seen.has(entry.targetId) ? entry.targetId : leaf;
    else if (!isBookkeeping(entry)) leaf = entry.id;
  });
  endRun(log.entries.length - 1);
  return found;
}

/** Is `entry` where a conversation rests between turns (not the middle of a tool call)? */
function resting(entry: SessionEntry | undefined): boolean {
  if (!entry || !isTarget(entry)) return false;
  return !(entry.type === "message" && entry.message.role === "assistant" && entry.message.content.some((b) => b.type === "toolUse"));
}
