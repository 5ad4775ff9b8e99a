// The answer in flight is on disk (docs/session-format.md, "partial"): while a
// conversation answer streams, what arrived of each text or thinking block is
// written as `partial` entries, at most once a second, and a timer writes what
// waits when no more arrives. A killed awl's
// partials are the answer: the next prompt sends it to the model and writes it
// as an interrupted message first; opening the session alone writes nothing.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { Agent } from "../../src/agent/agent";
import { SessionManager, messageToDisk } from "../../src/session";
import { searcher, type SearchHit } from "../../src/session/store/search";
import { forkSession, readSessionTree, readWholeLog } from "../../src/session/tree";
import { colorsFor } from "../../src/ui/render/colors";
import { exportText } from "../../src/ui/session/export";
import { treeRows } from "../../src/ui/session/tree";
import { renderTranscript } from "../../src/ui/session/transcript";
import { logLines, useAgentFixture } from "./helpers";

const fx = useAgentFixture();
const M = { provider: "anthropic", model: "claude-sonnet-4-5" };

const THOUGHT = "The person wants a long answer, so I will count slowly and say each number.";
const ANSWER = Array.from({ length: 40 }, (_, i) => `number ${i + 1}`).join(", ") + ".";

/** Waits for `ready`, checking every 20 ms, for at most a minute. */
async function until(ready: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let waited = 0; !(await ready()); waited += 20) {
    if (waited > 60_000) throw new Error(`gave up waiting for ${what}`);
    await Bun.sleep(20);
  }
}

/** The text of the partials of one block (their `text`, else their `thinking`), in file order. */
const joined = (partials: any[], block: number) =>
  partials
    .filter((p) => p.block === block)
    .map((p) => p.text ?? p.thinking)
    .join("");

describe("partials while an answer streams", () => {
  test("each holds what arrived of its block since the previous one, hangs off the prompt, and the finished message follows as before", async () => {
    const agent = new Agent({ session: SessionManager.init({ cwd: fx.project, ...M }), cwd: fx.project, model: M, env: fx.env });
    fx.server.reply({ blocks: [{ type: "thinking", thinking: THOUGHT }, { type: "text", text: ANSWER }, { type: "toolUse", name: "read", input: { path: "a.txt" } }], chunk: 5, delayMs: 40 });
    fx.server.reply({ blocks: [{ type: "text", text: "done" }] });
    await agent.runTurn("count to forty", new AbortController().signal, () => {});
    agent.session.close();

    const lines = await logLines(agent.session.sessionFile, { partials: true });
    const prompt = lines.find((l) => l.message?.role === "user")!;
    const answer = lines.find((l) => l.message?.role === "assistant")!;
    const partials = lines.filter((l) => l.type === "partial");
    const first = partials.filter((p) => lines.indexOf(p) < lines.indexOf(answer));
    // A stream of about four seconds: a partial a second, never the whole answer again.
    expect(first.length).toBeGreaterThan(2);
    // The thought ended while the text streamed on, so all of it was written; of the text, all but at most its last second.
    expect(joined(first, 0)).toBe(THOUGHT);
    expect(first.filter((p) => p.block === 0).every((p) => p.thinking !== undefined && p.text === undefined)).toBe(true);
    expect(joined(first, 1).length).toBeGreaterThan(0);
    expect(ANSWER.startsWith(joined(first, 1))).toBe(true);
    // The tool call (block 2) is in the finished message only.
    expect(first.some((p) => p.block === 2)).toBe(false);
    // Bookkeeping: each the child of the prompt; the answer is the prompt's child too, and the leaf.
    expect(first.every((p) => p.parentId === prompt.id && p.attempt === 1)).toBe(true);
    expect(answer.parentId).toBe(prompt.id);
    expect(answer.message.content.map((b: any) => b.type)).toEqual(["thinking", "text", "toolUse"]);
    // Key order: the head every entry has, then the partial's own fields.
    expect(Object.keys(first[0])).toEqual(["type", "id", "parentId", "timestamp", "attempt", "block", "thinking"]);
    // At most one write a second (a write holds a partial for each block that has new text).
    for (let i = 1; i < first.length; i++) {
      if (first[i].block !== first[i - 1].block) continue;
      expect(Date.parse(first[i].timestamp) - Date.parse(first[i - 1].timestamp)).toBeGreaterThanOrEqual(950);
    }
    // The tool loop's second answer came whole within its first second: its message alone, no partial.
    const results = lines.find((l) => l.message?.content?.[0]?.type === "toolResult")!;
    expect(partials.some((p) => p.parentId === results.id)).toBe(false);
  });

  test("text that arrives and then nothing more is written within a second, by the timer", async () => {
    const agent = new Agent({ session: SessionManager.init({ cwd: fx.project, ...M }), cwd: fx.project, model: M, env: fx.env });
    // The stream stops after a few deltas and keeps the connection open.
    fx.server.reply({ blocks: [{ type: "text", text: ANSWER }], chunk: 4, fault: { midStream: "stall", afterEvents: 8 } });
    const controller = new AbortController();
    let shown = "";
    const turn = agent.runTurn("count", controller.signal, (e) => {
      if (e.type === "delta") shown += e.text;
    });
    const partialText = () => {
      const text = readFileSync(agent.session.sessionFile, "utf8");
      return text
        .split("\n")
        .filter((l) => l.startsWith('{"type":"partial"'))
        .map((l) => JSON.parse(l).text)
        .join("");
    };
    // No more text comes and the block never ends: only the timer writes what arrived.
    await until(() => shown.length > 4 && partialText() === shown, "the stalled text to be written");
    expect(ANSWER.startsWith(shown)).toBe(true);
    controller.abort();
    await turn;
    agent.session.close();
  });

  test("a retried request starts a new attempt", async () => {
    const agent = new Agent({ session: SessionManager.init({ cwd: fx.project, ...M }), cwd: fx.project, model: M, env: fx.env });
    fx.server.reply({ fault: { status: 529 } }, { blocks: [{ type: "text", text: ANSWER }], chunk: 5, delayMs: 40 });
    await agent.runTurn("hello", new AbortController().signal, () => {});
    agent.session.close();
    const partials = (await logLines(agent.session.sessionFile, { partials: true })).filter((l) => l.type === "partial");
    expect(partials.every((p) => p.attempt === 2)).toBe(true);
    expect(partials.length).toBeGreaterThan(0);
    expect(ANSWER.startsWith(joined(partials, 0))).toBe(true);
  });
});

/** A session killed while its answer streamed: the prompt, then partials (attempts as given) and no message. */
function killedSession(partials: { attempt: number; block: number; text?: string; thinking?: string }[]): string {
  const s = SessionManager.init({ cwd: fx.project, ...M });
  s.appendMessage({ role: "system", content: [{ type: "text", text: "You are awl." }] });
  s.appendMessage(messageToDisk({ role: "user", content: [{ type: "text", text: "count to forty" }] }), M);
  for (const p of partials) s.appendPartial(p);
  s.close();
  return s.sessionFile;
}

describe("an answer a kill cut off", () => {
  test("is its latest attempt's text; opening the session writes nothing; the next prompt sends it and writes it, interrupted, before the prompt", async () => {
    const file = killedSession([
      { attempt: 1, block: 0, text: "from the failed try" },
      { attempt: 2, block: 0, thinking: "Counting: no signature came." },
      { attempt: 2, block: 1, text: "number 1, " },
      { attempt: 2, block: 1, text: "number 2, numb" },
    ]);
    const before = readFileSync(file, "utf8");
    const session = await SessionManager.open(file);
    // Shown on resume as a cut-off answer is, after its prompt.
    const transcript = renderTranscript(session, colorsFor({ isTTY: false }), 80, {}, {}).split("\n");
    expect(transcript.slice(transcript.indexOf("› count to forty"), -1)).toEqual(["› count to forty", "number 1, number 2, numb", "Interrupted."]);
    expect(session.interruptedAnswer()).toMatchObject({ role: "assistant", content: [{ type: "text", text: "number 1, number 2, numb" }], interrupted: true, ...M });
    const agent = new Agent({ session, cwd: fx.project, model: M, env: fx.env });
    expect(readFileSync(file, "utf8")).toBe(before);

    fx.server.reply({ blocks: [{ type: "text", text: "number 3" }] });
    await agent.runTurn("go on", new AbortController().signal, () => {});
    session.close();

    const request = fx.server.requests.at(-1)!;
    expect(request.status).toBe(200);
    expect(request.body.messages.slice(-2)).toEqual([
      { role: "assistant", content: [{ type: "text", text: "number 1, number 2, numb" }] },
      { role: "user", content: [{ type: "text", text: "go on", cache_control: { type: "ephemeral" } }] },
    ]);
    const lines = await logLines(file, { partials: true });
    const added = lines.slice(before.split("\n").filter(Boolean).length);
    expect(added.filter((l) => l.type !== "partial").map((l) => l.message.role)).toEqual(["assistant", "user", "assistant"]);
    expect(added[0].message).toEqual({
      role: "assistant",
      content: [{ type: "text", text: "number 1, number 2, numb" }],
      provider: M.provider,
      model: M.model,
      stopReason: "error",
      interrupted: true,
      errorMessage: "awl stopped before the answer was finished.",
    });
    // The interrupted message continues from the prompt; the partials stay behind it as history.
    expect(added[0].parentId).toBe(lines.find((l) => l.message?.content?.[0]?.text === "count to forty")!.id);
    const reopened = await SessionManager.open(file, { readOnly: true });
    expect(reopened.interruptedAnswer()).toBeUndefined();
    reopened.close();
  });

  test("a finished message after the partials leaves nothing waiting; partials with no text stand for no answer", async () => {
    const s = SessionManager.init({ cwd: fx.project, ...M });
    s.appendMessage(messageToDisk({ role: "user", content: [{ type: "text", text: "hi" }] }), M);
    s.appendPartial({ attempt: 1, block: 0, text: "hel" });
    s.appendMessage(messageToDisk({ role: "assistant", content: [{ type: "text", text: "hello" }] }, { ...M, stopReason: "stop" }));
    expect(s.interruptedAnswer()).toBeUndefined();
    s.appendMessage(messageToDisk({ role: "user", content: [{ type: "text", text: "think" }] }), M);
    s.appendPartial({ attempt: 1, block: 0, thinking: "only thinking" });
    expect(s.interruptedAnswer()).toBeUndefined();
    expect(s.nextAttempt()).toBe(2);
    s.close();
  });

  test("a session an older awl continued from a partial (its leaf then) reads as if the partials were bookkeeping", async () => {
    const file = killedSession([{ attempt: 1, block: 0, text: "half an ans" }]);
    const lines = readFileSync(file, "utf8").split("\n").filter(Boolean);
    const partial = JSON.parse(lines.at(-1)!);
    // What the previous release wrote next: a prompt, the child of the partial it took for the conversation.
    const prompt = { type: "message", id: "0ld0ld01", parentId: partial.id, timestamp: "2026-12-07T12:00:00.000Z", ...M, message: { role: "user", content: [{ type: "text", text: "again" }] } };
    await Bun.write(file, `${lines.join("\n")}\n${JSON.stringify(prompt)}\n`);
    const session = await SessionManager.open(file, { readOnly: true });
    expect(session.getBranch().map((e) => e.type === "message" && e.message.content[0]?.type === "text" && e.message.content[0].text)).toEqual(["You are awl.", "count to forty", "again"]);
    expect(session.getLeafId()).toBe("0ld0ld01");
    expect(session.interruptedAnswer()).toBeUndefined();
    session.close();
    // The whole tree (awl sessions tree, /tree, forks) and the whole log (/rewind) read the same path.
    const tree = readSessionTree(file);
    const first = lines.map((l) => JSON.parse(l)).find((l) => l.message?.content?.[0]?.text === "count to forty")!;
    expect(tree.byId.get("0ld0ld01")!.parent!.id).toBe(first.id);
    expect(tree.nodes.filter((n) => n.active).map((n) => n.id)).toEqual(session.getBranch().map((e) => e.id));
    expect(readWholeLog(file).pathTo("0ld0ld01").map((e) => e.id)).toEqual(session.getBranch().map((e) => e.id));
  });

  test("the tree (/tree, awl sessions tree) draws it under the leaf, marked interrupted, as no entry to go to; once written it is the answer's own row", async () => {
    const file = killedSession([{ attempt: 1, block: 0, text: "a draft that" }, { attempt: 2, block: 0, text: "number 1,\nnumber 2" }]);
    for (const filter of ["all", "prompts", "labelled"] as const) {
      const rows = treeRows(readSessionTree(file), filter, 100);
      expect(rows.at(-1)!.node).toBeUndefined();
      expect(rows.at(-1)!.text).toMatch(/^◌ {10}(\d{4}-\d\d-\d\d )?\d\d:\d\d awl +number 1, {2}\(interrupted\)$/);
      expect(rows.at(-2)!.text).toMatch(/^◉ [0-9a-f]{8} .*count to forty$/);
    }
    // At 30 columns the words give way, and the mark stays.
    expect(treeRows(readSessionTree(file), "all", 30).at(-1)!.text).toBe("◌ awl number 1,  (interrupted)");
    const agent = new Agent({ session: await SessionManager.open(file), cwd: fx.project, model: M, env: fx.env });
    fx.server.reply({ blocks: [{ type: "text", text: "number 3" }] });
    await agent.runTurn("go on", new AbortController().signal, () => {});
    agent.session.close();
    const after = treeRows(readSessionTree(file), "all", 100).map((r) => r.text);
    expect(after.some((t) => t.includes("(interrupted)"))).toBe(false);
    expect(after.slice(-3).map((t) => t.replace(/^\S+ \S+ \S+ /, ""))).toEqual(["awl     number 1,", "you     go on", "awl     number 3"]);
  });

  test("a fork of a path that ends in it copies its partials, at the leaf (read by line heads) and from the tree; history partials stay behind", async () => {
    const file = killedSession([{ attempt: 1, block: 0, text: "number 1, " }, { attempt: 1, block: 0, text: "number 2" }]);
    const kinds = (f: string) => (readFileSync(f, "utf8").trim().split("\n").slice(1).map((l) => JSON.parse(l).type));
    const atLeaf = forkSession({ parentFile: file, cwd: fx.project, model: (m) => m }).file;
    // A move to where it already is: the file no longer reads as one straight path, so the fork reads the tree.
    const session = await SessionManager.open(file);
    const prompt = session.getLeafId()!;
    session.moveLeaf(prompt);
    session.close();
    const fromTree = forkSession({ parentFile: file, cwd: fx.project, model: (m) => m }).file;
    for (const fork of [atLeaf, fromTree]) {
      expect(kinds(fork)).toEqual(["message", "message", "partial", "partial"]);
      const child = await SessionManager.open(fork, { readOnly: true });
      expect(child.interruptedAnswer()?.content).toEqual([{ type: "text", text: "number 1, number 2" }]);
      child.close();
    }
    // A prompt named as where a fork ends means before it: the prompt is left out, and the answer it was getting with it.
    const beforePrompt = forkSession({ parentFile: file, at: prompt, cwd: fx.project, model: (m) => m });
    expect(beforePrompt.leftOut?.id).toBe(prompt);
    expect(kinds(beforePrompt.file)).toEqual(["message"]);
    // Once the conversation went on, the partials are history: a fork copies the path alone.
    const agent = new Agent({ session: await SessionManager.open(file), cwd: fx.project, model: M, env: fx.env });
    fx.server.reply({ blocks: [{ type: "text", text: "number 3" }] });
    await agent.runTurn("go on", new AbortController().signal, () => {});
    agent.session.close();
    for (const fork of [forkSession({ parentFile: file, cwd: fx.project, model: (m) => m }).file, forkSession({ parentFile: file, at: agent.session.getLeafId()!, cwd: fx.project, model: (m) => m }).file]) {
      expect(kinds(fork).filter((k) => k !== "message")).toEqual([]);
    }
  });

  test("an export shows it, marked interrupted; the JSONL export holds its partials", async () => {
    const file = killedSession([{ attempt: 1, block: 0, text: "number 1, " }, { attempt: 1, block: 0, text: "number 2" }]);
    const markdown = exportText(file, "md", {});
    expect(markdown).toContain("number 1, number 2");
    expect(markdown.indexOf("number 1, number 2")).toBeGreaterThan(markdown.indexOf("count to forty"));
    expect(markdown.match(/\*Interrupted\.\*/g)).toHaveLength(1);
    const jsonl = exportText(file, "jsonl", {}).trim().split("\n").map((l) => JSON.parse(l));
    expect(jsonl.filter((l) => l.type === "partial").map((l) => l.text)).toEqual(["number 1, ", "number 2"]);
  });

  test("search finds its words; once its message is written, only the message's", async () => {
    const file = killedSession([{ attempt: 1, block: 0, text: "number 1, " }, { attempt: 1, block: 0, text: "number 2, aardvark" }]);
    const find = searcher("aardvark");
    const hits = (): SearchHit[] => {
      const found: SearchHit[] = [];
      find(file, (h) => found.push(h));
      return found;
    };
    const partial = (await logLines(file, { partials: true })).findLast((l) => l.type === "partial");
    expect(hits()).toEqual([{ entry: partial.id, line: "number 2, aardvark" }]);
    const agent = new Agent({ session: await SessionManager.open(file), cwd: fx.project, model: M, env: fx.env });
    fx.server.reply({ blocks: [{ type: "text", text: "number 3" }] });
    await agent.runTurn("go on", new AbortController().signal, () => {});
    agent.session.close();
    const written = (await logLines(file, { partials: true })).find((l) => l.message?.interrupted);
    expect(hits()).toEqual([{ entry: written.id, line: "number 1, number 2, aardvark" }]);
  });

  test("a session resumed from its tail (after a compaction) has it too", async () => {
    const s = SessionManager.init({ cwd: fx.project, ...M });
    s.appendMessage({ role: "system", content: [{ type: "text", text: "You are awl." }] });
    s.appendMessage(messageToDisk({ role: "user", content: [{ type: "text", text: "first" }] }), M);
    s.appendMessage(messageToDisk({ role: "assistant", content: [{ type: "text", text: "one" }] }, { ...M, stopReason: "stop" }));
    const kept = s.appendMessage(messageToDisk({ role: "user", content: [{ type: "text", text: "second" }] }), M);
    s.appendCompaction({ n: 1, summary: "The first turn.", firstKeptEntryId: kept, keptPrompts: ["first"], cutToolResults: [], window: 200_000, tokensBefore: 10, tokensAfter: 5, ...M });
    s.appendPartial({ attempt: 1, block: 0, text: "two, and" });
    s.close();
    const resumed = await SessionManager.open(s.sessionFile, { readOnly: true });
    expect(resumed.readFrom).toBeGreaterThan(0);
    expect(resumed.interruptedAnswer()?.content).toEqual([{ type: "text", text: "two, and" }]);
    resumed.close();
  });

  test("goes on with another provider and model: it is plain assistant text", async () => {
    const file = killedSession([{ attempt: 1, block: 0, thinking: "Unsigned." }, { attempt: 1, block: 1, text: "number 1, number 2" }]);
    for (const api of ["chat", "responses"]) {
      const copy = `${file}.${api}.jsonl`;
      await Bun.write(copy, Bun.file(file));
      const other = { provider: "openai", model: api === "chat" ? "gpt-4o" : "gpt-5-mini" };
      const agent = new Agent({ session: await SessionManager.open(copy), cwd: fx.project, model: other, env: { ...fx.env, AWL_OPENAI_API: api } });
      fx.server.reply({ blocks: [{ type: "text", text: "number 3" }] });
      await agent.runTurn("go on", new AbortController().signal, () => {});
      agent.session.close();
      const request = fx.server.requests.at(-1)!;
      expect(request.status).toBe(200);
      expect(JSON.stringify(request.body)).toContain("number 1, number 2");
      expect(JSON.stringify(request.body)).not.toContain("Unsigned.");
    }
  });
});
