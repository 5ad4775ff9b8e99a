// One line of a session file <-> one header or entry. Serialization writes keys
// in the spec's order (type first: listing counts messages by that prefix), so
// the spec's own example lines round-trip byte for byte.
import type { DiskContentBlock, DiskMessage, MessageEntry, SessionEntry, SessionHeader } from "./schema";

let loaded: typeof import("./schema") | undefined;

/**
 * The arktype schemas, loaded on first use: arktype costs ~150 ms of start-up
 * in the compiled binary (ark.ts), which `awl sessions` never needs and a new
 * interactive session pays while the person types (preloadSchemas, through
 * Agent.warmUp once the prompt shows). `require` is the lazy, synchronous form
 * of the import.
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
  const { type, version, id, timestamp, cwd, provider, model } = h;
  return JSON.stringify({ type, version, id, timestamp, cwd, provider, model });
}

export function serializeEntry(e: SessionEntry): string {
  if (!isMessageEntry(e)) return JSON.stringify(e); // not ours to reorder
  const out: Record<string, unknown> = { type: e.type, id: e.id, parentId: e.parentId, timestamp: e.timestamp };
  if (e.provider !== undefined) out.provider = e.provider;
  if (e.model !== undefined) out.model = e.model;
  out.message = orderMessage(e.message);
  return JSON.stringify(out);
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
  const { SessionHeader, MessageEntry, EntryBase } = schemas();
  if (kind === "session") return { kind: "header", header: check(SessionHeader(value)) };
  const schema = kind === "message" ? MessageEntry : EntryBase;
  return { kind: "entry", entry: check(schema(value)) as SessionEntry };
}

function check<T>(result: T | InstanceType<typeof import("./schema").ArkErrors>): T {
  if (result instanceof schemas().ArkErrors) throw new LineError(result.summary.replace(/\s*\n\s*/g, "; "), false);
  return result;
}

function orderMessage(m: DiskMessage): DiskMessage {
  const out: Record<string, unknown> = { role: m.role, content: m.content.map(orderBlock) };
  for (const key of ["provider", "model", "stopReason"] as const) if (m[key] !== undefined) out[key] = m[key];
  if (m.usage !== undefined) out.usage = { input: m.usage.input, output: m.usage.output };
  if (m.errorMessage !== undefined) out.errorMessage = m.errorMessage;
  return out as DiskMessage;
}

function orderBlock(b: DiskContentBlock): DiskContentBlock {
  switch (b.type) {
    case "text":
      return { type: b.type, text: b.text };
    case "thinking":
      return defined({ type: b.type, thinking: b.thinking, signature: b.signature, redacted: b.redacted });
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

/** Validates a message about to be written: nothing malformed reaches the log. */
export function checkDiskMessage(m: DiskMessage): void {
  check(schemas().DiskMessage(m));
}
