// One line of a session file <-> one header or entry. Serialization writes keys
// in a fixed order, `type` first (resume finds compactions, and the entry a
// compaction keeps from, by that head: docs/session-format.md), so the spec's
// own example lines round-trip byte for byte. parseLine is the one judge of a
// line: replay, resume from the tail, listing and "most recent" all ask it.
import type { ChildEntry, SessionEntry, SessionHeader, WrittenEntry } from "./schema";

import { allows } from "./checks.generated";
import { defined } from "./key-order";
import { isKnownKind, KINDS, rowOf } from "./kinds";

let loaded: typeof import("./schema") | undefined;

/**
 * The arktype schemas, loaded on first use: arktype costs ~100 ms of start-up
 * in the compiled binary (ark.ts). A line is judged by the generated checks
 * (checks.generated.ts) without it; the schemas load only to word why a line
 * fails, and when a new interactive session warms up (preloadSchemas,
 * through Agent.warmUp once the prompt shows: the tools need arktype too).
 * `require` is the lazy, synchronous form of the import.
 */
function schemas(): typeof import("./schema") {
  return (loaded ??= require("./schema") as typeof import("./schema"));
}

export function preloadSchemas(): void {
  schemas();
}

export type FileEntry = { kind: "header"; header: SessionHeader } | { kind: "entry"; entry: SessionEntry };

/** Why a line could not be read. `torn`: not even complete JSON (what a crash mid-write leaves). */
export class LineError extends Error {
  constructor(
    readonly reason: string,
    readonly torn: boolean,
  ) {
    super(reason);
    this.name = "LineError";
  }
}

export function serializeHeader(h: SessionHeader): string {
  const { type, version, id, timestamp, cwd, provider, model, project, forkedFrom } = h;
  return JSON.stringify(
    defined({ type, version, id, timestamp, cwd, provider, model, project: project && { root: project.root, path: project.path }, forkedFrom: forkedFrom && { session: forkedFrom.session, entry: forkedFrom.entry } }),
  );
}

/** One line for an entry awl writes, its keys in the order its row of the kind table gives. */
export function serializeEntry(e: WrittenEntry): string {
  return JSON.stringify(rowOf(e).order(e));
}

/** What follows the kind in an entry's line: `"id":"a1b2c3d4","parentId":` (resume tells an unreadable kept entry by it). */
export function entryIdHead(id: string): string {
  return `"id":${JSON.stringify(id)},"parentId":`;
}

/**
 * Parses and validates one line (without its newline); null for a blank one.
 * Throws LineError. Bytes are parsed as they are, with no string made of the
 * whole line first: for a 100 MB session that string is 100 MB of garbage.
 */
export function parseLine(line: Uint8Array | string): FileEntry | null {
  // parseChunk skips a byte order mark; JSON (and so every other reader of the line) does not.
  if (startsWithBom(line)) throw new LineError("not complete JSON", true);
  let parsed: Bun.JSONL.ParseChunkResult;
  try {
    parsed = Bun.JSONL.parseChunk(line);
  } catch {
    throw new LineError("not complete JSON", true); // nesting too deep to parse
  }
  const { values, done, error } = parsed;
  if (done && !error && values.length === 1) return validateValue(values[0]);
  // Blank by JSON's whitespace, or by JavaScript's (a no-break space, a line separator): nothing.
  if ((done && !error && values.length === 0) || decoded(line).trim() === "") return null;
  // Anything else (cut short, garbage after the value, two on one line) is not a line awl wrote.
  throw new LineError("not complete JSON", true);
}

function startsWithBom(line: Uint8Array | string): boolean {
  return typeof line === "string" ? line.charCodeAt(0) === 0xfeff : line[0] === 0xef && line[1] === 0xbb && line[2] === 0xbf;
}

function decoded(line: Uint8Array | string): string {
  return typeof line === "string" ? line : Buffer.from(line.buffer, line.byteOffset, line.byteLength).toString("utf8");
}

export function validateValue(value: unknown): FileEntry {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new LineError("not a JSON object", false);
  const kind = (value as { type?: unknown }).type;
  switch (kind) {
    case "session":
      return { kind: "header", header: checked(value, "SessionHeader") };
    case "message":
      return { kind: "entry", entry: checked(value, "MessageEntry") };
    default: {
      // A kind of the table is checked against its schema; any other is indexed for its place in the chain, otherwise opaque (forward compatibility).
      if (typeof kind === "string" && isKnownKind(kind)) return { kind: "entry", entry: checked(value, KINDS[kind].schema) };
      const { type, id, parentId, timestamp } = checked(value, "EntryBase");
      return { kind: "entry", entry: { type: "opaque", kind: type, id, parentId, timestamp } };
    }
  }
}

type Checked = keyof typeof allows;

/**
 * `value` as the schema's type, or a LineError saying why not. The verdict
 * comes from arktype's own compiled check (checks.generated.ts), without
 * loading arktype; only a value that fails it loads the schemas, for the
 * words of the error (arktype costs ~100 ms of start-up in the binary).
 */
function checked<K extends Checked>(value: unknown, schema: K): (typeof import("./schema"))[K]["infer"] {
  if (allows[schema](value)) return value as (typeof import("./schema"))[K]["infer"];
  return check(schemas()[schema](value) as (typeof import("./schema"))[K]["infer"]);
}

function check<T>(result: T | InstanceType<typeof import("./schema").ArkErrors>): T {
  if (result instanceof schemas().ArkErrors) throw new LineError(result.summary.replace(/\s*\n\s*/g, "; "), false);
  return result;
}

/**
 * The entry a child wrapper holds (docs/subagents.md), checked as its own
 * kind; undefined when it is not one this version can read (a damaged one,
 * or a wrapper in a wrapper), which its readers pass over.
 */
export function wrappedEntry(wrapper: ChildEntry): SessionEntry | undefined {
  try {
    const read = validateValue(wrapper.entry);
    return read.kind === "entry" && read.entry.type !== "child" ? read.entry : undefined;
  } catch (error) {
    if (error instanceof LineError) return undefined;
    throw error;
  }
}

/** Validates an entry about to be written: nothing malformed reaches the log. */
export function checkEntry(e: WrittenEntry): void {
  checked(e, KINDS[e.type].schema);
}
