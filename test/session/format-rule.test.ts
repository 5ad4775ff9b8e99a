// The format's rule (docs/session-format.md, "Entry kinds"): every change to
// the format is a new kind or a new optional field, never a new value in a
// closed set, so the previous release still opens what this one writes. Here
// a file holding every kind and every optional field, written by the current
// build, is judged line by line with the previous release's checks (a frozen
// copy in fixtures/): each line is accepted, or kept as an entry of a kind it
// did not know; none is damage. The same file opens, lists and draws as a tree
// with the current build. A kind or an optional field this file does not hold
// fails the first test: each later change to the format adds its case here.
import { expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { KINDS, listSessions, messageToDisk, parseLine, serializeHeader, SessionManager } from "../../src/session";
import * as schemas from "../../src/session/log/schema";
import { readSessionTree } from "../../src/session/tree";
import { judge } from "./fixtures/previous-release-checks";
import { useSessionRoot } from "./helpers";

useSessionRoot();

const M = { provider: "anthropic", model: "claude-sonnet-4-5" };
const usage = { input: 1200, output: 80, cacheRead: 9000, cacheWrite: 300, reasoning: 20 };
const HASH = "a".repeat(64);
const OTHER = "b".repeat(64);

/** A session the current build writes, with every kind and every optional field awl writes. */
function everything(): string {
  const s = SessionManager.init({ cwd: "/proj", ...M });
  s.appendMessage({ role: "system", content: [{ type: "text", text: "You are awl." }] });
  // An `@path` the prompt named: the file's content as read then, marked with the path.
  const prompt = s.appendMessage(messageToDisk({ role: "user", content: [{ type: "text", text: "fix the bug in @a.ts" }, { type: "text", text: '<attached path="a.ts">\nlet a = 1;\n</attached>', attached: "a.ts" }] }), { ...M, effort: "high" });
  s.appendMessage(
    messageToDisk(
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "look first", signature: "sig", origin: { api: "anthropic-messages", fingerprint: "0123456789ab" } },
          { type: "thinking", thinking: "", signature: "encrypted", redacted: true },
          { type: "text", text: "Looking.", phase: "commentary" },
          { type: "toolUse", id: "t1", name: "edit", input: '{"path":"a.ts"}' },
        ],
      },
      { ...M, api: "anthropic-messages", stopReason: "toolUse", usage },
    ),
    undefined,
    "prefixhash12",
  );
  // A subagent of the call t1: its entries, wrapped, in this file as they happen.
  SessionManager.child(s, "t1").appendMessage(messageToDisk({ role: "user", content: [{ type: "text", text: "look at a.ts" }] }), M);
  s.appendFileChange({ path: "a.ts", before: HASH, after: OTHER, mode: 0o644 });
  // A rewind's own entry: modes on both sides, a link brought back, a name that is not UTF-8 kept as its bytes.
  s.appendFileChange({ path: "docs/\ufffd.md", before: null, after: null, mode: null, modeAfter: null, linkBefore: "AGENTS.md", linkAfter: "README.md", pathBytes: Buffer.from([0x64, 0x6f, 0x63, 0x73, 0x2f, 0xff, 0x2e, 0x6d, 0x64]).toString("base64") });
  s.appendFileChange({ path: "run.sh", before: HASH, after: HASH, mode: 0o644, modeAfter: 0o755 });
  s.appendBashEffects({
    created: [{ path: "new.txt", before: null, after: OTHER, git: "c".repeat(40), mode: 0o600 }, { path: "link", before: null, after: null, mode: 0o644, linkAfter: "target.txt", modeAfter: 0o600, linkBefore: "old-target.txt", pathBytes: Buffer.from("link").toString("base64") }],
    modified: [{ path: "b.txt", before: HASH, after: OTHER, git: "c".repeat(40), mode: 0o644 }, { path: "b.sh", before: HASH, after: HASH, mode: 0o644, modeAfter: 0o755, linkBefore: "x", linkAfter: "y", pathBytes: Buffer.from("b.sh").toString("base64") }],
    deleted: [{ path: "old.txt", before: HASH, after: null, git: "c".repeat(40), mode: 0o644 }, { path: "old-link", before: null, after: null, mode: 0o644, modeAfter: 0o600, linkBefore: "x", linkAfter: "y", pathBytes: Buffer.from("old-link").toString("base64") }],
    untracked: [{ path: "huge.bin", reason: "too large" }],
  });
  // A task call's result carries what its subagent spent.
  s.appendMessage(messageToDisk({ role: "user", content: [{ type: "toolResult", toolUseId: "t1", content: "no such file", isError: true, usage }] }), M);
  // An MCP server's tool's result names the server and tool it reached.
  s.appendMessage(messageToDisk({ role: "user", content: [{ type: "toolResult", toolUseId: "t2", content: "3 issues", mcp: { server: "github", tool: "list_issues" } }] }), M);
  // An extension's records: its own data (never sent), and words for the model, as text blocks and as a string.
  s.appendCustom({ customType: "counter", data: { count: 2, seen: ["a.ts", null, 1.5, true] } });
  s.appendCustomMessage({ customType: "hook", content: [{ type: "text", text: "The tests pass." }], display: true });
  s.appendCustomMessage({ customType: "reminder", content: "Keep answers short.", display: false });
  // The answer in flight: partials of a thinking block and of a text block.
  s.appendPartial({ attempt: 1, block: 0, thinking: "Half a tho" });
  s.appendPartial({ attempt: 2, block: 1, text: "Half an an" });
  const cut = s.appendMessage(messageToDisk({ role: "assistant", content: [{ type: "text", text: "Half an answ" }] }, { ...M, stopReason: "error", interrupted: true, errorMessage: "Interrupted by the user." }));
  s.setTitle("Fix the bug", "auto", { ...M, usage });
  s.setLabel("before the fix", prompt);
  s.appendCompaction({ n: 1, summary: "So far.", firstKeptEntryId: prompt, keptPrompts: ["fix the bug"], cutToolResults: ["t1"], window: 200_000, tokensBefore: 150_000, tokensAfter: 20_000, ...M, usage, summarizedTurns: 1 });
  s.moveLeaf(cut);
  s.appendBranchSummary({ fromId: cut, summary: "A path left behind.", ...M, usage });
  s.close();
  // The header's optional fields, as the current build writes them (a session in a repository, a fork).
  const [header, ...rest] = readFileSync(s.sessionFile, "utf8").split("\n");
  const fields = { ...JSON.parse(header!), project: { root: "d".repeat(40), path: "." }, forkedFrom: { session: "019dc5ba-53f6-71a5-ab8f-b1f8709c2572", entry: "a1b2c3d4" } };
  writeFileSync(s.sessionFile, [serializeHeader(fields), ...rest].join("\n"));
  return s.sessionFile;
}

const lines = (file: string) =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/** Every property path a JSON Schema allows (`a.b`, `a[].c`), unions merged. */
function schemaPaths(node: Record<string, unknown>, prefix = ""): string[] {
  const out: string[] = [];
  for (const variant of (node.anyOf as Record<string, unknown>[] | undefined) ?? [node]) {
    if (variant.items) out.push(...schemaPaths(variant.items as Record<string, unknown>, `${prefix}[]`));
    for (const [key, child] of Object.entries((variant.properties as Record<string, Record<string, unknown>> | undefined) ?? {})) out.push(`${prefix}.${key}`, ...schemaPaths(child, `${prefix}.${key}`));
  }
  return out;
}

/** Every property path a value holds. */
function valuePaths(value: unknown, prefix = ""): string[] {
  if (Array.isArray(value)) return value.flatMap((item) => valuePaths(item, `${prefix}[]`));
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([key, child]) => [`${prefix}.${key}`, ...valuePaths(child, `${prefix}.${key}`)]);
}

test("the file holds every kind of the kind table and every field of its schemas, optional ones included", () => {
  const written = lines(everything());
  const byKind = Map.groupBy(written, (line) => line.type as string);
  expect([...byKind.keys()].sort()).toEqual(["session", ...Object.keys(KINDS)].sort());
  const checked: [string, keyof typeof schemas][] = [["session", "SessionHeader"], ...Object.entries(KINDS).map(([kind, row]): [string, keyof typeof schemas] => [kind, row.schema])];
  for (const [kind, schemaName] of checked) {
    const held = new Set(byKind.get(kind)!.flatMap((line) => valuePaths(line)));
    const missing = [...new Set(schemaPaths((schemas[schemaName] as { toJsonSchema(): object }).toJsonSchema() as Record<string, unknown>))].filter((path) => !held.has(path));
    expect({ kind, missing }).toEqual({ kind, missing: [] });
  }
});

test("the previous release opens it: every line accepted or kept as a kind it did not know, none counted as damage", () => {
  const verdicts = lines(everything()).map((line) => ({ type: line.type, verdict: judge(line) }));
  expect(verdicts.filter((v) => v.verdict === "damaged")).toEqual([]);
  expect(verdicts[0]!.verdict).toBe("header");
});

test("the current build opens it, lists it without damage and draws its tree", async () => {
  const file = everything();
  for (const line of readFileSync(file, "utf8").split("\n").filter(Boolean)) expect(parseLine(line)).not.toBeNull();
  const session = await SessionManager.open(file, { readOnly: true });
  try {
    expect(session.getEntry(session.getLeafId()!)?.type).toBe("branch_summary");
    expect(session.title()).toEqual({ title: "Fix the bug", source: "auto" });
  } finally {
    session.close();
  }
  const [listed] = await listSessions("/proj");
  expect(listed!.damaged).toBeUndefined();
  expect(listed!.damagedBeforeCompaction).toBeUndefined();
  expect(readSessionTree(file).nodes.map((n) => n.kind)).toEqual(lines(file).slice(1).map((l) => l.type as string));
});

test("what the rule forbids is what the previous release counts as damage: a new value in a closed set, not a new kind", () => {
  const answer = lines(everything()).find((line) => (line.message as { role?: string } | undefined)?.role === "assistant")!;
  const message = answer.message as Record<string, unknown>;
  expect(judge({ ...answer, message: { ...message, stopReason: "aborted" } })).toBe("damaged");
  expect(judge({ ...answer, type: "partial" })).toBe("unknown kind");
  expect(judge({ ...answer, message: { ...message, someday: true } })).toBe("entry");
});
