// One line of a session file <-> one header or entry. Serialization writes keys
// in a fixed order, `type` first (resume finds compactions, and the entry a
// compaction keeps from, by that head: docs/session-format.md), so the spec's
// own example lines round-trip byte for byte. parseLine is the one judge of a
// line: replay, resume from the tail, listing and "most recent" all ask it.
import type { BashEffectsEntry, BranchSummaryEntry, CompactionEntry, DiskContentBlock, DiskMessage, MessageEntry, PathEffect, SessionEntry, SessionHeader, SessionInfoEntry, Usage, WrittenEntry } from "./schema";

import { allows } from "./checks.generated";

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

/** One line for an entry awl writes; every kind is spelled out, so a new kind does not compile until its order is decided. */
export function serializeEntry(e: WrittenEntry): string {
  switch (e.type) {
    case "message":
      return JSON.stringify(
        defined({ type: e.type, id: e.id, parentId: e.parentId, timestamp: e.timestamp, provider: e.provider, model: e.model, effort: e.effort, prefixHash: e.prefixHash, message: orderMessage(e.message) }),
      );
    case "compaction":
      return JSON.stringify(orderCompaction(e));
    case "file_change":
      return JSON.stringify(
        defined({ type: e.type, id: e.id, parentId: e.parentId, timestamp: e.timestamp, path: e.path, before: e.before, after: e.after, mode: e.mode, modeAfter: e.modeAfter, linkBefore: e.linkBefore, linkAfter: e.linkAfter, pathBytes: e.pathBytes }),
      );
    case "bash_effects":
      return JSON.stringify(orderBashEffects(e));
    case "session_info":
      return JSON.stringify(orderSessionInfo(e));
    case "leaf":
      return JSON.stringify({ type: e.type, id: e.id, parentId: e.parentId, timestamp: e.timestamp, targetId: e.targetId });
    case "label":
      return JSON.stringify({ type: e.type, id: e.id, parentId: e.parentId, timestamp: e.timestamp, targetId: e.targetId, label: e.label });
    case "branch_summary":
      return JSON.stringify(orderBranchSummary(e));
  }
}

/** What follows the kind in an entry's line: `"id":"a1b2c3d4","parentId":` (resume tells an unreadable kept entry by it). */
export function entryIdHead(id: string): string {
  return `"id":${JSON.stringify(id)},"parentId":`;
}

export function isMessageEntry(e: SessionEntry): e is MessageEntry {
  return e.type === "message";
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
    case "compaction":
    case "file_change":
    case "bash_effects":
    case "session_info":
    case "leaf":
    case "label":
    case "branch_summary":
      return { kind: "entry", entry: checked(value, SCHEMA_OF[kind]) };
    default: {
      // Indexed for its place in the chain, otherwise opaque (forward compatibility).
      const { type, id, parentId, timestamp } = checked(value, "EntryBase");
      return { kind: "entry", entry: { type: "opaque", kind: type, id, parentId, timestamp } };
    }
  }
}

type Checked = "SessionHeader" | "MessageEntry" | "CompactionEntry" | "FileChangeEntry" | "BashEffectsEntry" | "SessionInfoEntry" | "LeafEntry" | "LabelEntry" | "BranchSummaryEntry" | "EntryBase";

/** The schema of each kind awl writes: a new kind does not compile until it has one. */
const SCHEMA_OF = {
  message: "MessageEntry",
  compaction: "CompactionEntry",
  file_change: "FileChangeEntry",
  bash_effects: "BashEffectsEntry",
  session_info: "SessionInfoEntry",
  leaf: "LeafEntry",
  label: "LabelEntry",
  branch_summary: "BranchSummaryEntry",
} as const satisfies Record<WrittenEntry["type"], Checked>;

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

function orderMessage(m: DiskMessage): DiskMessage {
  const { role, content, provider, model, api, stopReason, usage, errorMessage } = m;
  return defined({ role, content: content.map(orderBlock), provider, model, api, stopReason, usage: usage && orderUsage(usage), errorMessage });
}

function orderUsage(u: Usage): Usage {
  return defined({ input: u.input, output: u.output, cacheRead: u.cacheRead, cacheWrite: u.cacheWrite, reasoning: u.reasoning });
}

function orderCompaction(e: CompactionEntry): CompactionEntry {
  const { type, id, parentId, timestamp, n, summary, firstKeptEntryId, keptPrompts, cutToolResults, window, tokensBefore, tokensAfter, provider, model, usage, summarizedTurns } = e;
  return defined({
    type, id, parentId, timestamp, n, summary, firstKeptEntryId, keptPrompts: [...keptPrompts], cutToolResults: [...cutToolResults],
    window, tokensBefore, tokensAfter, provider, model, usage: usage && orderUsage(usage), summarizedTurns,
  });
}

function orderBashEffects(e: BashEffectsEntry): BashEffectsEntry {
  const effect = (p: PathEffect): PathEffect => defined({ path: p.path, before: p.before, after: p.after, git: p.git, mode: p.mode, modeAfter: p.modeAfter, linkBefore: p.linkBefore, linkAfter: p.linkAfter, pathBytes: p.pathBytes });
  return {
    type: e.type, id: e.id, parentId: e.parentId, timestamp: e.timestamp,
    created: e.created.map(effect), modified: e.modified.map(effect), deleted: e.deleted.map(effect),
    untracked: e.untracked.map((u) => ({ path: u.path, reason: u.reason })),
  };
}

function orderSessionInfo(e: SessionInfoEntry): SessionInfoEntry {
  const { type, id, parentId, timestamp, title, source, provider, model, usage } = e;
  return defined({ type, id, parentId, timestamp, title, source, provider, model, usage: usage && orderUsage(usage) });
}

function orderBranchSummary(e: BranchSummaryEntry): BranchSummaryEntry {
  const { type, id, parentId, timestamp, fromId, summary, provider, model, usage } = e;
  return defined({ type, id, parentId, timestamp, fromId, summary, provider, model, usage: usage && orderUsage(usage) });
}

function orderBlock(b: DiskContentBlock): DiskContentBlock {
  switch (b.type) {
    case "text":
      return defined({ type: b.type, text: b.text, phase: b.phase });
    case "thinking":
      return defined({ type: b.type, thinking: b.thinking, signature: b.signature, redacted: b.redacted, origin: b.origin && { api: b.origin.api, fingerprint: b.origin.fingerprint } });
    case "toolUse":
      return { type: b.type, id: b.id, name: b.name, input: b.input };
    case "toolResult":
      return defined({ type: b.type, toolUseId: b.toolUseId, content: b.content, isError: b.isError });
  }
}

function defined<T extends object>(o: T): T {
  for (const key of Object.keys(o) as (keyof T)[]) if (o[key] === undefined) delete o[key];
  return o;
}

/** Validates an entry about to be written: nothing malformed reaches the log. */
export function checkEntry(e: WrittenEntry): void {
  checked(e, SCHEMA_OF[e.type]);
}
