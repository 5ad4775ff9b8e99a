// What an extension keeps, kept the way going back undoes it
// (docs/extensions.md, "State that survives going back"): an extension
// records each change as a `custom` entry of its type, and its state is the
// fold of the active path's entries of that type, from the session's first
// entry to the leaf. Nothing is held in between: asked after a rewind, a /tree
// move, a fork, a resume or a crash, the state is the fold of the path the
// session is on then, so it can never disagree with the log.
import { closeSync, fstatSync, openSync } from "node:fs";
import { parseLine, readLineAt, type CustomEntry, type SessionEntry } from "../session";
import { readSessionTree, type TreeNode } from "../session/tree";

/** What the state reads of a session (a SessionManager). */
export interface PathSource {
  getBranch(): SessionEntry[];
  getLeafId(): string | null;
  /** Where open began to read: after a resume from the tail, the path before it is not in memory. */
  readonly readFrom: number;
  readonly sessionFile: string;
}

/** How an extension's state is made from its entries: `initial()` a fresh state, `apply` one entry's data to it. */
export interface Fold<S> {
  customType: string;
  initial: () => S;
  apply: (state: S, data: unknown) => S;
}

/**
 * An extension's state: the fold of the active path's `custom` entries of
 * its type, recomputed whenever the leaf has moved since it was last asked
 * (every append moves it; so do a rewind, a /tree move and a resume).
 */
export class FoldedState<S> {
  #last: { leaf: string | null; readFrom: number; state: S } | undefined;
  /** The path's entries of this type before a tail resume's first read line: read from the file once per tail. */
  #beforeTail: { readFrom: number; first: string; entries: CustomEntry[] } | undefined;

  constructor(
    readonly source: PathSource,
    readonly fold: Fold<S>,
  ) {}

  get(): S {
    const leaf = this.source.getLeafId();
    const { readFrom } = this.source;
    if (this.#last?.leaf === leaf && this.#last.readFrom === readFrom) return this.#last.state;
    const branch = this.source.getBranch();
    const ours = (e: SessionEntry): e is CustomEntry => e.type === "custom" && e.customType === this.fold.customType;
    const entries = [...this.#before(branch), ...branch.filter(ours)];
    const state = entries.reduce((s, e) => this.fold.apply(s, e.data), this.fold.initial());
    this.#last = { leaf, readFrom, state };
    return state;
  }

  /** The entries of this type on the path before what open read (none unless the session was resumed from its tail). */
  #before(branch: readonly SessionEntry[]): CustomEntry[] {
    const { readFrom, sessionFile } = this.source;
    const first = branch[0];
    if (readFrom === 0 || !first) return [];
    if (this.#beforeTail?.readFrom !== readFrom || this.#beforeTail.first !== first.id) {
      this.#beforeTail = { readFrom, first: first.id, entries: customsBefore(sessionFile, first.id, this.fold.customType) };
    }
    return this.#beforeTail.entries;
  }
}

/**
 * The custom entries of `customType` on the path to the entry `id`, the
 * entry left out: the tree reads every line by its head, and only the
 * custom lines on the path are parsed whole.
 */
function customsBefore(file: string, id: string, customType: string): CustomEntry[] {
  const tree = readSessionTree(file, { text: false });
  const end = tree.byId.get(id);
  const path: TreeNode[] = [];
  for (let node = end?.parent; node; node = node.parent) if (node.kind === "custom") path.push(node);
  if (!path.length) return [];
  const fd = openSync(file, "r");
  try {
    const size = fstatSync(fd).size;
    const out: CustomEntry[] = [];
    for (const node of path.reverse()) {
      const read = entryAt(fd, node.offset, size);
      if (read?.type === "custom" && read.customType === customType) out.push(read);
    }
    return out;
  } finally {
    closeSync(fd);
  }
}

/** The entry whose line starts at `offset`; undefined for a line that does not read as one (open skips it too). */
function entryAt(fd: number, offset: number, size: number): SessionEntry | undefined {
  const line = readLineAt(fd, offset, size);
  try {
    const read = line && parseLine(line);
    return read && read.kind === "entry" ? read.entry : undefined;
  } catch {
    return undefined;
  }
}
