// A fork is named for its parent: `<parent title> (fork N)`, N counting the
// parent's forks in the fork's folder, this one included. Forks taken within a
// minute share the first digits of their ids; their names tell them apart in
// the picker, in `awl sessions` and to `--resume "(fork 2)"`.
import { basename, dirname, join } from "node:path";
import { sourcedTitleOf } from "./glance";
import { readHeader, sessionFiles } from "./listing";
import { cutToColumns, TITLE_COLUMNS, type Title } from "../log";

/** The fork's title, undefined when the parent has none (not even a first prompt). */
export function forkTitle(parentFile: string, parentId: string, forkFile: string): Title | undefined {
  const parent = sourcedTitleOf(parentFile);
  if (parent === undefined) return undefined;
  const suffix = ` (fork ${forksOf(parentId, basename(parentFile), dirname(forkFile))})`;
  // A title the person gave stays theirs in the fork; a title from a prompt or a model stays one awl may replace.
  return { title: `${cutToColumns(parent.title, TITLE_COLUMNS - Bun.stringWidth(suffix))}${suffix}`, source: parent.source };
}

/** Forks of `parentId` in `folder`: only files named after the parent's (a name starts with its time) can be. */
function forksOf(parentId: string, parentName: string, folder: string): number {
  return sessionFiles(folder).filter((name) => name > parentName && readHeader(join(folder, name))?.forkedFrom?.session === parentId).length;
}
