import { describe, expect, test } from "bun:test";
import type { ContentBlock } from "../../src/conversation";
import {
  contentBlockToDisk,
  diskContentBlockToInternal,
  diskMessageToInternal,
  LineError,
  messageToDisk,
  parseLine,
  serializeEntry,
  serializeHeader,
  type CompactionEntry,
  type FileEntry,
  type WrittenEntry,
} from "../../src/session";
import { SPEC } from "./helpers";

/** A line that must parse to a header or entry. */
const parse = (line: string | Uint8Array): FileEntry => {
  const parsed = parseLine(line);
  if (!parsed) throw new Error(`blank line: ${JSON.stringify(line)}`);
  return parsed;
};
const reserialize = (parsed: FileEntry) => {
  if (parsed.kind === "header") return serializeHeader(parsed.header);
  if (parsed.entry.type === "opaque") throw new Error("awl never writes an entry of a kind it does not know");
  return serializeEntry(parsed.entry);
};

describe("the spec's example lines", () => {
  for (const [name, line] of Object.entries(SPEC)) {
    test(`${name} parses and serializes back byte for byte`, () => {
      expect(reserialize(parse(line))).toBe(line);
    });
  }

  test("the assistant example keeps its metadata on the entry and only role/content in memory", () => {
    const parsed = parse(SPEC.assistant);
    if (parsed.kind !== "entry" || !("message" in parsed.entry)) throw new Error("expected a message entry");
    expect(parsed.entry.message).toMatchObject({ provider: "anthropic", model: "claude-sonnet-4-20250514", stopReason: "toolUse", usage: { input: 1500, output: 85 } });
    expect(diskMessageToInternal(parsed.entry.message)).toEqual({
      role: "assistant",
      content: [
        { type: "thinking", thinking: "The user wants to list files..." },
        { type: "text", text: "I'll check that for you." },
        { type: "toolUse", id: "tool_abc123", name: "bash", input: '{"command":"ls"}' },
      ],
    });
  });
});

const COMPACTION: CompactionEntry = {
  type: "compaction",
  id: "2badcafe",
  parentId: "1badcafe",
  timestamp: "2026-01-01T00:00:02.000Z",
  n: 2,
  summary: "Goal: fix the date parser.\nDone: ...",
  firstKeptEntryId: "1badcafe",
  keptPrompts: ["fix the parser", "no, keep the offset"],
  cutToolResults: ["t1"],
  window: 200000,
  tokensBefore: 182000,
  tokensAfter: 21000,
  provider: "anthropic",
  model: "claude-sonnet-4-5",
  usage: { input: 180000, output: 900, cacheRead: 0 },
  summarizedTurns: 41,
};

describe("entry serialization", () => {
  test("every entry shape, with the optional fields, round-trips through serialize and parse", () => {
    const message = messageToDisk(
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "hmm", signature: "sig==" },
          { type: "thinking", thinking: "", signature: "opaque", redacted: true },
          { type: "text", text: "ünïcødé ✓ and \"quotes\"\n" },
          { type: "toolUse", id: "t1", name: "edit", input: '{"path":"a.ts"' },
        ],
      },
      { provider: "openai", model: "gpt-4o", stopReason: "error", usage: { input: 3, output: 4, cacheRead: 1200, cacheWrite: 7 }, errorMessage: "stream cut" },
    );
    const entries: WrittenEntry[] = [
      { type: "message", id: "0badcafe", parentId: null, timestamp: "2026-01-01T00:00:00.000Z", message },
      {
        type: "message",
        id: "1badcafe",
        parentId: "0badcafe",
        timestamp: "2026-01-01T00:00:01.000Z",
        provider: "anthropic",
        model: "claude",
        message: { role: "user" as const, content: [{ type: "toolResult" as const, toolUseId: "t1", content: "boom", isError: true }] },
      },
      COMPACTION,
    ];
    for (const entry of entries) {
      const line = serializeEntry(entry);
      const parsed = parse(line);
      expect(parsed).toEqual({ kind: "entry", entry });
      expect(parse(Buffer.from(line))).toEqual(parsed); // replay parses the bytes
      expect(reserialize(parsed)).toBe(line);
    }
  });

  test("keys are written in the spec's order whatever order the object was built in", () => {
    const entry = { message: { usage: { output: 2, input: 1 }, content: [], role: "assistant" as const, model: "m", provider: "p" }, timestamp: "t", parentId: null, id: "x", type: "message" as const };
    expect(serializeEntry(entry)).toBe('{"type":"message","id":"x","parentId":null,"timestamp":"t","message":{"role":"assistant","content":[],"provider":"p","model":"m","usage":{"input":1,"output":2}}}');
  });

  test("unknown fields are ignored on read", () => {
    const line = SPEC.system.replace('"parentId":null', '"parentId":null,"futureField":{"x":1}');
    const parsed = parse(line);
    expect(parsed.kind).toBe("entry");
    expect(reserialize(parsed)).toBe(SPEC.system);
  });

  test("an entry of an unknown kind is accepted with just the common fields, as an opaque entry that keeps its kind", () => {
    const parsed = parseLine('{"type":"bookmark","id":"zz","parentId":"s1s2s3s4","timestamp":"t","label":"checkpoint"}');
    expect(parsed).toEqual({ kind: "entry", entry: { type: "opaque", kind: "bookmark", id: "zz", parentId: "s1s2s3s4", timestamp: "t" } });
    expect(() => parseLine('{"type":"bookmark","id":"","parentId":null,"timestamp":"t"}')).toThrow(LineError);
  });

  test("a compaction is written in the documented key order and a malformed one is damage, not an unknown kind", () => {
    const shuffled = Object.fromEntries(Object.entries(COMPACTION).reverse()) as CompactionEntry;
    const line = serializeEntry(shuffled);
    expect(line.startsWith('{"type":"compaction","id":"2badcafe","parentId":"1badcafe","timestamp":"2026-01-01T00:00:02.000Z","n":2,"summary":')).toBe(true);
    expect(Object.keys(JSON.parse(line))).toEqual(Object.keys(COMPACTION));
    const { firstKeptEntryId: _, ...missing } = COMPACTION;
    expect(() => parseLine(JSON.stringify(missing))).toThrow(/firstKeptEntryId/);
    expect(() => parseLine(JSON.stringify({ ...COMPACTION, n: 0 }))).toThrow(LineError);
    expect(() => parseLine(JSON.stringify({ ...COMPACTION, keptPrompts: "x" }))).toThrow(/keptPrompts/);
  });

  test("bad lines say why; only incomplete JSON counts as torn", () => {
    const reasons = (line: string) => {
      try {
        parseLine(line);
        return undefined;
      } catch (error) {
        expect(error).toBeInstanceOf(LineError);
        return error as LineError;
      }
    };
    expect(reasons('{"type":"message","id":')?.torn).toBe(true);
    expect(reasons("[1,2]")).toMatchObject({ torn: false, reason: "not a JSON object" });
    const wrongRole = reasons(SPEC.system.replace('"role":"system"', '"role":"robot"'))!;
    expect(wrongRole.torn).toBe(false);
    expect(wrongRole.reason).toContain("role");
    expect(wrongRole.reason).not.toContain("\n");
    expect(reasons(SPEC.system.replace('"id":"s1s2s3s4"', '"id":""'))?.reason).toContain("id");
    expect(reasons(SPEC.assistant.replace('"input":"{\\"command\\":\\"ls\\"}"', '"input":{"command":"ls"}'))?.reason).toContain("input");
    expect(reasons(SPEC.header.replace('"version":1', '"version":"1"'))?.reason).toContain("version");
    // Exactly one value per line: garbage after it, or a second one, is not a line awl wrote.
    expect(reasons(`${SPEC.system} x`)?.torn).toBe(true);
    expect(reasons(`${SPEC.system} ${SPEC.system}`)?.torn).toBe(true);
    expect(reasons(`${SPEC.system}\0\0`)?.torn).toBe(true);
    expect(reasons(`\ufeff${SPEC.system}`)?.torn).toBe(true); // a byte order mark is not JSON, as every other reader of the line agrees
    expect(() => parseLine(Buffer.from(`\ufeff${SPEC.system}`))).toThrow(LineError);
    expect(reasons(`{"a":${"[".repeat(1_000_000)}${"]".repeat(1_000_000)}}`)).toBeInstanceOf(LineError); // too deep to parse: an error, not a crash
  });

  test("a blank line is nothing, not an error", () => {
    for (const blank of ["", "   ", "\t\r", Buffer.from(" \r"), Buffer.from("\u00a0 \u2028")]) expect(parseLine(blank)).toBeNull();
  });
});

describe("content block conversion", () => {
  const blocks: [string, ContentBlock][] = [
    ["a text block", { type: "text", text: "hello" }],
    ["a thinking block", { type: "thinking", thinking: "pondering" }],
    ["a signed thinking block", { type: "thinking", thinking: "signed", signature: "abc" }],
    ["a redacted thinking block", { type: "thinking", thinking: "", signature: "opaque-data", redacted: true }],
    ["a tool call", { type: "toolUse", id: "toolu_1", name: "bash", input: '{"command": "ls -la"}' }],
    ["a tool result", { type: "toolResult", toolUseId: "toolu_1", content: "a\nb" }],
    ["a failed tool result", { type: "toolResult", toolUseId: "toolu_2", content: "failed", isError: true }],
  ];
  for (const [what, block] of blocks) {
    test(`${what} survives memory -> disk -> memory unchanged`, () => {
      const disk = contentBlockToDisk(block);
      expect(disk).toEqual(block as never);
      expect(diskContentBlockToInternal(disk)).toEqual(block);
    });
  }

  test("tool input stays the raw JSON text, whitespace and all, never re-encoded", () => {
    const raw = '{ "command" :  "ls" }';
    const line = serializeEntry({ type: "message", id: "i", parentId: null, timestamp: "t", message: messageToDisk({ role: "assistant", content: [{ type: "toolUse", id: "u", name: "bash", input: raw }] }) });
    expect(JSON.parse(line).message.content[0].input).toBe(raw);
  });

  test("messageToDisk keeps the metadata out of memory and drops absent fields", () => {
    const disk = messageToDisk({ role: "assistant", content: [{ type: "text", text: "x" }] }, { provider: "anthropic", stopReason: "stop" });
    expect(disk).toEqual({ role: "assistant", content: [{ type: "text", text: "x" }], provider: "anthropic", stopReason: "stop" });
    expect(diskMessageToInternal(disk)).toEqual({ role: "assistant", content: [{ type: "text", text: "x" }] });
  });
});
