// Branches in one file: the leaf moves by appending, never by rewriting; what
// open, resume from the tail and the context builder read is the path to the
// moved leaf; forks copy the path's lines byte for byte.
import { describe, expect, test } from "bun:test";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { SessionManager, type CompactionFields } from "../../src/session";
import { forkSession } from "../../src/session/tree/fork";
import { findTarget, readSessionTree } from "../../src/session/tree/tree";
import { treeRows } from "../../src/ui/session/tree";
import { docExample, expectWrittenByAwl, useSessionRoot, writeExample } from "./helpers";

useSessionRoot();
const CWD = "/home/ana/code/shop";
const MODEL = { provider: "anthropic", model: "claude-sonnet-4-5" };
const text = (t: string) => [{ type: "text" as const, text: t }];

/** A session of `turns` prompt/answer pairs after a system message; returns it and the ids of its prompts and answers. */
function session(turns: number): { s: SessionManager; prompts: string[]; answers: string[] } {
  const s = SessionManager.init({ cwd: CWD, ...MODEL });
  s.appendMessage({ role: "system", content: text("You are awl.") });
  const prompts: string[] = [];
  const answers: string[] = [];
  for (let i = 1; i <= turns; i++) {
    prompts.push(s.appendMessage({ role: "user", content: text(`prompt ${i}`) }, MODEL));
    answers.push(s.appendMessage({ role: "assistant", content: text(`answer ${i}`), stopReason: "stop", usage: { input: 10, output: 5 } }));
  }
  return { s, prompts, answers };
}

const said = (s: SessionManager) => s.context().messages.map((m) => m.content.map((b) => (b.type === "text" ? b.text : b.type)).join(""));

describe("moving the leaf", () => {
  test("appends one leaf entry; every earlier byte stays; the next message continues from the target", async () => {
    const { s, answers } = session(3);
    const before = readFileSync(s.sessionFile);
    s.moveLeaf(answers[0]!);
    expect(said(s)).toEqual(["You are awl.", "prompt 1", "answer 1"]);
    const after = readFileSync(s.sessionFile);
    expect(after.subarray(0, before.length).equals(before)).toBe(true);
    const leafLine = JSON.parse(after.subarray(before.length).toString());
    expect(leafLine).toMatchObject({ type: "leaf", targetId: answers[0], parentId: answers[2] });
    const id = s.appendMessage({ role: "user", content: text("another way") }, MODEL);
    expect(s.getEntry(id)!.parentId).toBe(answers[0]!);
    s.close();
    const again = await SessionManager.open(s.sessionFile);
    expect(said(again)).toEqual(["You are awl.", "prompt 1", "answer 1", "another way"]);
    again.close();
  });

  test("a move survives a reopen with nothing after it: the leaf is the target of the last leaf entry", async () => {
    const { s, prompts } = session(4);
    s.moveLeaf(prompts[1]!);
    s.setLabel("the second prompt");
    s.close();
    const again = await SessionManager.open(s.sessionFile);
    expect(again.getLeafId()).toBe(prompts[1]!);
    expect(again.labelOf(prompts[1]!)).toBe("the second prompt");
    expect(said(again)).toEqual(["You are awl.", "prompt 1", "answer 1", "prompt 2"]);
    again.close();
  });

  test("labels and moves never become the leaf; an empty label removes the name", () => {
    const { s, answers } = session(2);
    s.setLabel("start", answers[0]!);
    expect(s.getLeafId()).toBe(answers[1]!);
    s.setLabel("", answers[0]!);
    expect(s.labelOf(answers[0]!)).toBeUndefined();
    s.close();
  });

  test("a branch summary is the child of the new leaf and reaches the model as a marked summary", async () => {
    const { s, answers } = session(3);
    const from = s.getLeafId()!;
    s.moveLeaf(answers[0]!);
    s.appendBranchSummary({ fromId: from, summary: "Tried turns 2 and 3; they broke the build." });
    const sent = said(s);
    expect(sent.slice(0, 3)).toEqual(["You are awl.", "prompt 1", "answer 1"]);
    expect(sent[3]).toContain("<summary>\nTried turns 2 and 3; they broke the build.\n</summary>");
    expect(sent.join("\n")).not.toContain("answer 2");
    s.close();
  });

  test("bookkeeping and moves to an entry of another kind are refused", () => {
    const { s } = session(1);
    const label = s.setLabel("x");
    expect(() => s.moveLeaf(label.id)).toThrow();
    s.close();
  });
});

describe("resume from the tail with branches", () => {
  const compaction = (keep: string): CompactionFields => ({
    n: 1, summary: "turns so far", firstKeptEntryId: keep, keptPrompts: [], cutToolResults: [], window: 1000, tokensBefore: 900, tokensAfter: 100, provider: "anthropic", model: "m",
  });

  test("a move to before the latest compaction reads back far enough to hold the whole path", async () => {
    const { s, prompts, answers } = session(6);
    const kept = prompts[4]!;
    s.moveLeaf(prompts[4]!);
    s.appendCompaction(compaction(kept));
    s.appendMessage({ role: "assistant", content: text("after compaction"), stopReason: "stop" });
    s.close();
    const compacted = await SessionManager.open(s.sessionFile);
    expect(compacted.readFrom).toBeGreaterThan(0);
    compacted.moveLeaf(answers[1]!); // before what was read: the path is read again
    expect(said(compacted)).toEqual(["You are awl.", "prompt 1", "answer 1", "prompt 2", "answer 2"]);
    compacted.close();
    const again = await SessionManager.open(s.sessionFile);
    expect(again.readFrom).toBe(0);
    expect(said(again)).toEqual(["You are awl.", "prompt 1", "answer 1", "prompt 2", "answer 2"]);
    again.close();
  });

  test("a move to between the compaction's kept prompt and the compaction reads the path back to the root", async () => {
    const { s, prompts, answers } = session(6);
    s.appendCompaction(compaction(prompts[4]!));
    s.appendMessage({ role: "assistant", content: text("after compaction"), stopReason: "stop" });
    s.close();
    const compacted = await SessionManager.open(s.sessionFile);
    expect(compacted.readFrom).toBeGreaterThan(0);
    compacted.moveLeaf(answers[4]!); // read already, but its path now runs past the compaction's kept prompt
    expect(said(compacted)).toEqual(["You are awl.", ...[1, 2, 3, 4, 5].flatMap((i) => [`prompt ${i}`, `answer ${i}`])]);
    compacted.close();
  });

  test("the compaction in force is the latest on the active path, not in the file", async () => {
    const { s, prompts, answers } = session(4);
    s.appendCompaction(compaction(prompts[3]!));
    s.moveLeaf(answers[1]!);
    s.appendMessage({ role: "user", content: text("other path") }, MODEL);
    s.close();
    const again = await SessionManager.open(s.sessionFile);
    expect(again.compaction()).toBeUndefined();
    expect(said(again)).toEqual(["You are awl.", "prompt 1", "answer 1", "prompt 2", "answer 2", "other path"]);
    again.close();
  });
});

describe("the tree and its targets", () => {
  test("targets are named by a unique id prefix; bookkeeping, unknown and ambiguous prefixes are usage errors", () => {
    const { s, answers } = session(2);
    const label = s.setLabel("named");
    s.close();
    const tree = readSessionTree(s.sessionFile);
    expect(findTarget(tree, answers[0]!.slice(0, 6)).id).toBe(answers[0]!);
    expect(() => findTarget(tree, label.id)).toThrow(/label entry/);
    expect(() => findTarget(tree, "zzzz")).toThrow(/no entry/);
    expect(() => findTarget(tree, "")).toThrow();
    expect(tree.nodes.find((n) => n.id === answers[1])?.label).toBe("named");
  });

  test("read without every entry's words (a fork, /tree of prompts, /rewind), the tree draws the same prompts and labels", () => {
    const { s, answers } = session(3);
    s.setLabel("named", answers[0]!);
    s.moveLeaf(answers[1]!);
    s.appendMessage({ role: "user", content: text("another way") }, MODEL);
    s.appendMessage({ role: "assistant", content: text("answer on the branch"), stopReason: "stop", usage: { input: 10, output: 5 } });
    s.close();
    const whole = readSessionTree(s.sessionFile);
    const bare = readSessionTree(s.sessionFile, { text: false });
    const drawn = (tree: typeof whole, filter: "prompts" | "labelled") => treeRows(tree, filter, 100).map((row) => [row.node?.id, row.text]);
    for (const filter of ["prompts", "labelled"] as const) expect(drawn(bare, filter)).toEqual(drawn(whole, filter));
    expect(drawn(bare, "prompts").map(([, row]) => row).join("\n")).toContain("answer on the branch"); // the leaf's words
    expect(bare.nodes.find((n) => n.id === answers[2])?.text).toBe(""); // an answer no such drawing shows
    expect(bare.nodes.map((n) => [n.id, n.parentId, n.kind, n.active, n.prompt, n.offset])).toEqual(whole.nodes.map((n) => [n.id, n.parentId, n.kind, n.active, n.prompt, n.offset]));
  });
});

describe("the tree of a file a crash cut short", () => {
  test("a torn last line is left out of the tree, as open trims it", () => {
    const { s } = session(1);
    s.close();
    const whole = readFileSync(s.sessionFile, "utf8");
    const torn = `{"type":"message","id":"deadbeef","parentId":"${s.getLeafId()}","timestamp":"t","message":{"role":"user","content":[{"type":"text","text":"cut sh`;
    writeFileSync(s.sessionFile, `${whole}${torn}`);
    const tree = readSessionTree(s.sessionFile);
    expect(tree.byId.has("deadbeef")).toBe(false);
    expect(tree.leafId).toBe(s.getLeafId());
  });
});

describe("forks", () => {
  test("the child's entry lines are the parent's path lines, byte for byte; it resumes after the parent is deleted", async () => {
    const { s, answers } = session(3);
    s.moveLeaf(answers[0]!);
    s.appendMessage({ role: "user", content: text("branch") }, MODEL);
    s.close();
    const parentLines = readFileSync(s.sessionFile, "utf8").split("\n");
    const tree = readSessionTree(s.sessionFile);
    const child = forkSession({ parentFile: s.sessionFile, cwd: CWD, model: () => MODEL }).file;
    const childLines = readFileSync(child, "utf8").trimEnd().split("\n");
    expect(JSON.parse(childLines[0]!).forkedFrom).toEqual({ session: s.sessionId, entry: tree.leafId });
    // system, prompt 1, answer 1 (the file's lines 2, 3 and 5: prompt 1's title, line 4, is bookkeeping, off the path), then "branch", the line after the leaf entry
    expect(childLines.slice(1)).toEqual([1, 2, 4, 10].map((i) => parentLines[i]!));
    rmSync(s.sessionFile);
    const opened = await SessionManager.open(child);
    expect(said(opened)).toEqual(["You are awl.", "prompt 1", "answer 1", "branch"]);
    opened.close();
  });

  test("a fork at the leaf of a session that never branched is the fork its tree gives: titles and labels stepped over, the model its path used last", () => {
    const { s, answers } = session(2);
    s.setLabel("first answer", answers[0]!);
    const other = { provider: "openai", model: "gpt-5.4-mini" };
    s.appendMessage({ role: "user", content: text("prompt 3") }, other);
    s.appendMessage({ role: "assistant", content: text("answer 3"), stopReason: "stop" });
    s.close();
    const parentLines = readFileSync(s.sessionFile, "utf8").trimEnd().split("\n");
    const lines = (file: string) => readFileSync(file, "utf8").trimEnd().split("\n");
    const atLeaf = lines(forkSession({ parentFile: s.sessionFile, cwd: CWD, model: (m) => m }).file);
    const fromTree = lines(forkSession({ parentFile: s.sessionFile, at: s.getLeafId()!, cwd: CWD, model: (m) => m }).file);
    expect(atLeaf.slice(1)).toEqual(fromTree.slice(1));
    expect(atLeaf.slice(1)).toEqual(parentLines.filter((line) => !/^\{"type":"(session_info|label)"/.test(line)).slice(1));
    expect(atLeaf.slice(1)).toHaveLength(7);
    expect(JSON.parse(atLeaf[0]!)).toMatchObject({ ...other, forkedFrom: { session: s.sessionId, entry: s.getLeafId() } });
  });

  test("a file another program wrote (keys in another order, a parent that skips back) forks along its real path", () => {
    const { s, prompts, answers } = session(2);
    s.close();
    const parentLines = readFileSync(s.sessionFile, "utf8").trimEnd().split("\n");
    const reordered = parentLines.map((line) => {
      const value = JSON.parse(line);
      return value.id === answers[0] ? JSON.stringify({ parentId: value.parentId, ...value }) : line;
    });
    // A third prompt answering prompt 1's answer again, with no leaf entry: the path skips prompt 2 and its answer.
    const skipping = JSON.stringify({ type: "message", id: "5k1p0001", parentId: answers[0], timestamp: "2026-01-01T00:00:00.000Z", message: { role: "user", content: text("again") } });
    writeFileSync(s.sessionFile, `${[...reordered, skipping].join("\n")}\n`);
    const child = readFileSync(forkSession({ parentFile: s.sessionFile, cwd: CWD, model: () => MODEL }).file, "utf8").trimEnd().split("\n");
    const byId = (id: string) => reordered.find((line) => JSON.parse(line).id === id)!;
    expect(child.slice(1)).toEqual([reordered[1]!, byId(prompts[0]!), byId(answers[0]!), skipping]);
  });

  test("ten forks of forks are all complete", async () => {
    const { s } = session(2);
    s.close();
    let file = s.sessionFile;
    for (let i = 0; i < 10; i++) {
      const next = forkSession({ parentFile: file, cwd: CWD, model: () => MODEL }).file;
      const opened = await SessionManager.open(next);
      opened.appendMessage({ role: "user", content: text(`fork ${i}`) }, MODEL);
      opened.close();
      file = next;
    }
    const last = await SessionManager.open(file, { readOnly: true });
    expect(said(last)).toEqual(["You are awl.", "prompt 1", "answer 1", "prompt 2", "answer 2", ...Array.from({ length: 10 }, (_, i) => `fork ${i}`)]);
    last.close();
  });

  test("a fork that would end at unanswered tool calls is refused", () => {
    const s = SessionManager.init({ cwd: CWD, ...MODEL });
    s.appendMessage({ role: "user", content: text("list files") }, MODEL);
    s.appendMessage({ role: "assistant", content: [{ type: "toolUse", id: "t1", name: "bash", input: "{}" }], stopReason: "toolUse" });
    s.close();
    expect(() => forkSession({ parentFile: s.sessionFile, cwd: CWD, model: () => MODEL })).toThrow(/tool calls/);
  });

  test("entry kinds awl does not know keep their bytes through a move, a reopen, the tree and a fork", async () => {
    const { s } = session(2);
    s.close();
    const unknown = `{"type":"future_kind","id":"f00d0001","parentId":"${s.getLeafId()}","timestamp":"2026-01-01T00:00:00.000Z","payload":{"keep":[1,2,3]}}`;
    writeFileSync(s.sessionFile, `${readFileSync(s.sessionFile, "utf8")}${unknown}\n`);
    const tree = readSessionTree(s.sessionFile);
    expect(tree.nodes.at(-1)).toMatchObject({ kind: "future_kind", active: true });
    const child = forkSession({ parentFile: s.sessionFile, cwd: CWD, model: () => MODEL }).file;
    expect(readFileSync(child, "utf8")).toContain(`${unknown}\n`);
    const opened = await SessionManager.open(s.sessionFile);
    opened.moveLeaf(tree.nodes[1]!.id);
    opened.close();
    expect(readFileSync(s.sessionFile, "utf8")).toContain(`${unknown}\n`);
  });
});

describe("the example with branches in docs/session-format.md", () => {
  const example = docExample("An example with branches");

  test("is what awl writes: every line reads back and serializes byte for byte", () => {
    for (const kind of ["leaf", "label", "branch_summary"]) expect(example.some((line) => line.startsWith(`{"type":"${kind}"`))).toBe(true);
    expectWrittenByAwl(example);
  });

  test("opens at line 11, with the context the page says: nothing of the path left but its summary", async () => {
    const s = await SessionManager.open(writeExample(example), { readOnly: true });
    expect(s.getLeafId()).toBe(JSON.parse(example[10]!).id);
    expect(s.labelOf(JSON.parse(example[3]!).id)).toBe("before choosing");
    const texts = said(s);
    expect(texts).toHaveLength(6);
    expect(texts[3]).toContain("<summary>");
    expect(texts.join("\n")).not.toContain("Parse it by hand.");
    s.close();
  });
});
