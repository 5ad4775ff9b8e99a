// Compaction in the log: one more line, nothing removed; the context built
// from it; resume that reads only the tail; and listing that agrees with open
// on every line.
import { describe, expect, test } from "bun:test";
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { textMessage, type Message } from "../../src/conversation";
import { UserError } from "../../src/errors";
import { CUT_KEEP_BYTES, listSessions, messageToDisk, SessionManager, type CompactionFields } from "../../src/session";
import { docExample, expectWrittenByAwl, useSessionRoot, writeExample } from "./helpers";

useSessionRoot();
const CWD = "/work/compact";
const M = { provider: "anthropic", model: "claude-sonnet-4-5" };

/** A session of `turns` turns, each: prompt, tool call, tool result, answer. Returns it open, with the ids of its prompts. */
function longSession(turns: number, options: { bigResults?: boolean } = {}) {
  const s = SessionManager.init({ cwd: CWD, ...M });
  s.appendMessage(messageToDisk(textMessage("system", "You are awl.")));
  const prompts: string[] = [];
  for (let t = 0; t < turns; t++) prompts.push(turn(s, t, options));
  return { s, prompts };
}

function turn(s: SessionManager, t: number, options: { bigResults?: boolean } = {}): string {
  const prompt = s.appendMessage(messageToDisk(textMessage("user", `prompt ${t}`)), M);
  const call = `toolu_${t}`;
  s.appendMessage(
    messageToDisk({ role: "assistant", content: [{ type: "toolUse", id: call, name: "read", input: `{"path":"f${t}"}` }] }, { ...M, stopReason: "toolUse", usage: { input: 100 + t, output: 10, cacheRead: 1000 * t } }),
  );
  const content = options.bigResults ? `${"<".repeat(5000)}${t}${">".repeat(5000)}` : `contents of f${t}`;
  s.appendMessage(messageToDisk({ role: "user", content: [{ type: "toolResult", toolUseId: call, content }] }), M);
  s.appendMessage(messageToDisk(textMessage("assistant", `answer ${t}`), { ...M, stopReason: "stop", usage: { input: 200 + t, output: 20 } }));
  return prompt;
}

function compaction(firstKeptEntryId: string, extra: Partial<CompactionFields> = {}): CompactionFields {
  return {
    n: 1,
    summary: "Goal: read every file.",
    firstKeptEntryId,
    keptPrompts: ["prompt 0", "prompt 1"],
    cutToolResults: [],
    window: 8000,
    tokensBefore: 7000,
    tokensAfter: 900,
    provider: M.provider,
    model: M.model,
    usage: { input: 6000, output: 300 },
    summarizedTurns: 2,
    ...extra,
  };
}

const texts = (m: Message) => m.content.map((b) => (b.type === "text" ? b.text : b.type === "toolResult" ? `result:${b.content}` : b.type));

describe("a compaction in the log", () => {
  test("is one more line, the child of the leaf; every earlier line stays byte for byte", () => {
    const { s, prompts } = longSession(3);
    const before = readFileSync(s.sessionFile);
    const entry = s.appendCompaction(compaction(prompts[2]!));
    const after = readFileSync(s.sessionFile);
    expect(after.subarray(0, before.length).equals(before)).toBe(true);
    const line = after.subarray(before.length).toString();
    expect(line.endsWith("\n") && line.indexOf("\n") === line.length - 1).toBe(true);
    expect(JSON.parse(line)).toEqual(entry);
    expect(line.startsWith(`{"type":"compaction","id":"${entry.id}","parentId":"${s.getBranch().at(-2)!.id}",`)).toBe(true);
    expect(s.getLeafId()).toBe(entry.id);
    expect(s.messageCount()).toBe(13);
    s.close();
  });

  test("the context becomes: system, the summary with the kept prompts verbatim, then everything from the first kept prompt on", () => {
    const { s, prompts } = longSession(3);
    s.appendCompaction(compaction(prompts[2]!, { keptPrompts: ["prompt 0", "no — keep the *offset*\n  exactly"] }));
    const context = s.context();
    expect(context.messages.map((m) => m.role)).toEqual(["system", "user", "user", "assistant", "user", "assistant"]);
    expect(texts(context.messages[0]!)).toEqual(["You are awl."]);
    expect(context.summary).toBe(context.messages[1]);
    const [intro, ...kept] = texts(context.summary!);
    expect(intro).toContain("<summary>\nGoal: read every file.\n</summary>");
    expect(intro).toContain("(2 turns) was compacted");
    expect(kept).toEqual(["prompt 0", "no — keep the *offset*\n  exactly"]);
    expect(texts(context.messages[2]!)).toEqual(["prompt 2"]);
    expect(context.compaction?.firstKeptEntryId).toBe(prompts[2]);
    expect(s.rebuildConversation().messages).toEqual(context.messages);
    s.close();
  });

  test("cut tool results keep their first and last 2 KB around the count of what was cut", () => {
    const { s, prompts } = longSession(2, { bigResults: true });
    s.appendCompaction(compaction(prompts[1]!, { cutToolResults: ["toolu_1"] }));
    const result = s.context().messages.flatMap((m) => m.content).find((b) => b.type === "toolResult")!;
    if (result.type !== "toolResult") throw new Error("no result");
    expect(result.content).toBe(`${"<".repeat(CUT_KEEP_BYTES)}\n[… ${(10_001 - 2 * CUT_KEEP_BYTES).toLocaleString("en-US")} bytes cut]\n${">".repeat(CUT_KEEP_BYTES)}`);
    // The log keeps the whole result.
    expect(readFileSync(s.sessionFile, "utf8")).toContain(`${"<".repeat(5000)}1${">".repeat(5000)}`);
    s.close();
  });

  test("a later compaction wins; its own kept part is what follows the summary", () => {
    const { s, prompts } = longSession(2);
    s.appendCompaction(compaction(prompts[1]!));
    const third = turn(s, 2);
    s.appendCompaction(compaction(third, { n: 2, summary: "updated", keptPrompts: ["prompt 0", "prompt 1"] }));
    const context = s.context();
    expect(context.compaction?.n).toBe(2);
    expect(context.messages.slice(2).map(texts)).toEqual([["prompt 2"], ["toolUse"], ["result:contents of f2"], ["answer 2"]]);
    s.close();
  });

  test("the active model is the last stamped prompt's, across the compaction", () => {
    const { s, prompts } = longSession(2);
    s.appendCompaction(compaction(prompts[1]!));
    s.appendMessage(messageToDisk(textMessage("user", "switch")), { provider: "openai", model: "gpt-5-mini" });
    expect(s.activeModel()).toEqual({ provider: "openai", model: "gpt-5-mini" });
    s.close();
  });

  test("the context's size is the last response's tokens plus what came since; right after a compaction, its own estimate", () => {
    const { s, prompts } = longSession(2);
    expect(s.contextSize()).toEqual({ tokens: 201 + 20, bytesSince: 0, anchored: true });
    const prompt = messageToDisk(textMessage("user", "next"));
    s.appendMessage(prompt, M);
    expect(s.contextSize()).toEqual({ tokens: 221, bytesSince: JSON.stringify(prompt).length, anchored: true });
    s.appendCompaction(compaction(prompts[1]!));
    expect(s.contextSize()).toEqual({ tokens: 900, bytesSince: 0, anchored: true });
    const fresh = SessionManager.init({ cwd: CWD, ...M });
    const system = messageToDisk(textMessage("system", "sys"));
    fresh.appendMessage(system);
    expect(fresh.contextSize()).toEqual({ tokens: 0, bytesSince: JSON.stringify(system).length, anchored: false });
    s.close();
    fresh.close();
  });

  test("a malformed compaction is refused before anything is written", () => {
    const { s, prompts } = longSession(1);
    const before = readFileSync(s.sessionFile);
    expect(() => s.appendCompaction(compaction(prompts[0]!, { n: 0 }))).toThrow();
    expect(readFileSync(s.sessionFile).equals(before)).toBe(true);
    s.close();
  });
});

describe("resume from the tail", () => {
  test("reads the header, the system message and the file from the first kept prompt on, and builds the same context", async () => {
    const { s, prompts } = longSession(40);
    s.appendCompaction(compaction(prompts[38]!));
    turn(s, 40);
    const live = s.context();
    s.close();
    const file = readFileSync(s.sessionFile, "utf8");
    const resumed = await SessionManager.open(s.sessionFile);
    expect(resumed.readFrom).toBe(file.indexOf(`{"type":"message","id":"${prompts[38]}",`));
    expect(resumed.getBranch()[0]!.id).toBe(prompts[38]!);
    expect(resumed.context().messages).toEqual(live.messages);
    expect(resumed.activeModel()).toEqual(live.model);
    expect(resumed.contextSize()).toEqual(s.contextSize());
    // It goes on appending where the file ends.
    resumed.appendMessage(messageToDisk(textMessage("user", "more")), M);
    expect(resumed.getBranch().at(-2)!.id).toBe(s.getLeafId()!);
    resumed.close();
    expect(readFileSync(s.sessionFile, "utf8").startsWith(file)).toBe(true);
  });

  test("a file without a compaction is replayed whole, as before", async () => {
    const { s } = longSession(3);
    s.close();
    const resumed = await SessionManager.open(s.sessionFile);
    expect(resumed.readFrom).toBe(0);
    expect(resumed.messageCount()).toBe(13);
    resumed.close();
  });

  test("a torn last line after the compaction is trimmed and the tail still resumes", async () => {
    const { s, prompts } = longSession(3);
    s.appendCompaction(compaction(prompts[2]!));
    s.close();
    const whole = readFileSync(s.sessionFile);
    appendFileSync(s.sessionFile, '{"type":"message","id":"torn","parentId":"x","timestamp":"t","message":{"ro');
    const resumed = await SessionManager.open(s.sessionFile);
    expect(resumed.recovery?.trimmedBytes).toBeGreaterThan(0);
    expect(resumed.readFrom).toBeGreaterThan(0);
    resumed.close();
    expect(readFileSync(s.sessionFile).equals(whole)).toBe(true);
  });

  test("a compaction torn as it was written (the last line) is trimmed; the one before it, or the whole file, is used", async () => {
    const { s, prompts } = longSession(3);
    s.appendCompaction(compaction(prompts[1]!));
    s.close();
    const line = JSON.stringify({ type: "compaction", id: "cafe0000", parentId: s.getLeafId(), timestamp: "t", n: 2 });
    appendFileSync(s.sessionFile, line.slice(0, 60));
    const resumed = await SessionManager.open(s.sessionFile);
    expect(resumed.context().compaction?.n).toBe(1);
    expect(resumed.getBranch()[0]!.id).toBe(prompts[1]!);
    resumed.close();
  });

  test("a compaction whose first kept entry is not an earlier prompt is ignored with a notice; the one before it is used", async () => {
    const { s, prompts } = longSession(4);
    s.appendCompaction(compaction(prompts[1]!));
    const toolResult = s.getBranch().at(-3)!.id; // a tool result message of turn 1: not a prompt
    s.appendCompaction(compaction(toolResult, { n: 2, summary: "bad" }));
    s.appendCompaction(compaction("00000000", { n: 3, summary: "worse" }));
    s.close();
    const resumed = await SessionManager.open(s.sessionFile);
    expect(resumed.context().compaction?.n).toBe(1);
    expect(resumed.getBranch()[0]!.id).toBe(prompts[1]!);
    expect(resumed.notices()).toEqual([
      expect.stringMatching(/compaction \w+ in .* is ignored: its first kept entry 00000000 is not an earlier prompt/),
      expect.stringMatching(new RegExp(`its first kept entry ${toolResult} is not an earlier prompt`)),
    ]);
    resumed.close();
  });

  test("the first kept entry is the nearest earlier entry with that id, of any kind: another kind reusing the id makes that compaction not in force", async () => {
    const { s, prompts } = longSession(3);
    s.appendCompaction(compaction(prompts[1]!));
    const third = turn(s, 3);
    s.appendCompaction(compaction(third, { n: 2 }));
    s.close();
    const text = readFileSync(s.sessionFile, "utf8").split("\n");
    const at = text.findIndex((l) => l.startsWith(`{"type":"compaction","id":`) && l.includes('"n":2'));
    text.splice(at, 0, JSON.stringify({ type: "bookmark", id: third, parentId: null, timestamp: "t" }));
    writeFileSync(s.sessionFile, text.join("\n"));
    const resumed = await SessionManager.open(s.sessionFile);
    expect(resumed.context().compaction?.n).toBe(1);
    expect(resumed.getBranch()[0]!.id).toBe(prompts[1]!);
    expect(resumed.notices()).toEqual([expect.stringContaining(`its first kept entry ${third} is not an earlier prompt`)]);
    resumed.close();
  });

  test("lines with their keys in another order are found all the same; one that cannot be told falls back to the whole replay, which names it", async () => {
    const { s, prompts } = longSession(3);
    s.appendCompaction(compaction(prompts[2]!));
    s.close();
    const original = readFileSync(s.sessionFile, "utf8").split("\n");
    const reversed = (line: string, change: Record<string, unknown> = {}) => JSON.stringify(Object.fromEntries(Object.entries({ ...JSON.parse(line), ...change }).reverse()));
    const keptAt = original.findIndex((l) => l.includes(`"id":"${prompts[2]}"`));
    const text = original.map((l, i) => (i > 0 && l ? reversed(l) : l));
    writeFileSync(s.sessionFile, text.join("\n"));
    const resumed = await SessionManager.open(s.sessionFile);
    expect(resumed.readFrom).toBe(text.slice(0, keptAt).join("\n").length + 1);
    expect(resumed.context().compaction?.n).toBe(1);
    resumed.close();

    text[keptAt] = reversed(original[keptAt]!, { timestamp: 5 }); // holds the kept id, and is not an entry
    writeFileSync(s.sessionFile, text.join("\n"));
    const error = await SessionManager.open(s.sessionFile).catch((e) => e);
    expect(error).toBeInstanceOf(UserError);
    expect(error.message).toStartWith(`${s.sessionFile}:${keptAt + 1}: `); // a line number: the whole file was replayed
  });

  test("with no valid compaction at all, the whole file is replayed", async () => {
    const { s } = longSession(2);
    s.appendCompaction(compaction("ffffffff"));
    s.close();
    const resumed = await SessionManager.open(s.sessionFile);
    expect(resumed.readFrom).toBe(0);
    expect(resumed.context().compaction).toBeUndefined();
    expect(resumed.context().messages).toHaveLength(9);
    expect(resumed.notices()).toHaveLength(1);
    resumed.close();
  });

  test("damage before the first kept entry is never read; damage after it is reported by byte offset", async () => {
    const { s, prompts } = longSession(4);
    s.appendCompaction(compaction(prompts[3]!));
    s.close();
    const text = readFileSync(s.sessionFile, "utf8").split("\n");
    text[4] = "{garbage"; // turn 0's tool result
    writeFileSync(s.sessionFile, text.join("\n"));
    const resumed = await SessionManager.open(s.sessionFile);
    expect(resumed.context().compaction?.n).toBe(1);
    resumed.close();

    const afterKept = text.length - 3; // the answer of turn 3, after the kept prompt
    const offset = text.slice(0, afterKept).join("\n").length + 1;
    text[afterKept] = "{garbage";
    writeFileSync(s.sessionFile, text.join("\n"));
    const error = await SessionManager.open(s.sessionFile).catch((e) => e);
    expect(error).toBeInstanceOf(UserError);
    expect(error.message).toBe(`${s.sessionFile}: byte ${offset}: not complete JSON`);
  });

  test("an entry id seen twice: a parentId names the nearest earlier entry with that id", async () => {
    const { s, prompts } = longSession(2);
    s.appendCompaction(compaction(prompts[1]!));
    s.close();
    // Two later entries reuse the id of the first kept prompt (ids before the tail are not known on resume).
    const reused = prompts[1]!;
    const leaf = s.getLeafId();
    const lines = [
      { type: "message", id: reused, parentId: leaf, timestamp: "2026-01-01T00:00:00.000Z", provider: "anthropic", model: "m", message: { role: "user", content: [{ type: "text", text: "again" }] } },
      { type: "message", id: "beef0001", parentId: reused, timestamp: "2026-01-01T00:00:01.000Z", message: { role: "assistant", content: [{ type: "text", text: "to the second" }] } },
    ];
    appendFileSync(s.sessionFile, lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
    const resumed = await SessionManager.open(s.sessionFile);
    const branch = resumed.getBranch().map((e) => e.id);
    expect(branch).toEqual([prompts[1]!, ...s.getBranch().slice(-4).map((e) => e.id), reused, "beef0001"]);
    expect(resumed.context().messages.map((m) => texts(m)[0])).toEqual(["You are awl.", expect.stringContaining("<summary>"), "prompt 1", "toolUse", "result:contents of f1", "answer 1", "again", "to the second"]);
    resumed.close();
  });
});

describe("listing a compacted session", () => {
  test("counts every message and every compaction in the file", async () => {
    const { s, prompts } = longSession(3);
    s.appendCompaction(compaction(prompts[1]!));
    turn(s, 3);
    s.appendCompaction(compaction(prompts[2]!, { n: 2 }));
    s.close();
    const [info] = await listSessions(CWD);
    expect(info).toMatchObject({ messageCount: 17, compactions: 2, firstPrompt: "prompt 0" });
    expect(info!.damaged).toBeUndefined();
  });

  test("damage before the latest compaction's first kept entry is listed as such, and the session opens", async () => {
    const { s, prompts } = longSession(3);
    s.appendCompaction(compaction(prompts[2]!));
    s.close();
    const text = readFileSync(s.sessionFile, "utf8").split("\n");
    text[3] = '{"type":"message","id":"x"}';
    writeFileSync(s.sessionFile, text.join("\n"));
    const [info] = await listSessions(CWD);
    expect(info!.damaged).toBeUndefined();
    expect(info!.damagedBeforeCompaction).toMatch(/^line 4: /);
    (await SessionManager.open(s.sessionFile)).close();
  });

  test("damage in the tail, or in the system message, makes it damaged", async () => {
    const { s, prompts } = longSession(3);
    s.appendCompaction(compaction(prompts[1]!));
    s.close();
    const original = readFileSync(s.sessionFile, "utf8").split("\n");
    for (const index of [1, original.length - 3]) {
      const text = [...original];
      text[index] = "\u0001";
      writeFileSync(s.sessionFile, text.join("\n"));
      const [info] = await listSessions(CWD);
      expect(info!.damaged).toBe(`line ${index + 1}: not complete JSON`);
      await expect(SessionManager.open(s.sessionFile)).rejects.toThrow(UserError);
    }
  });
});

describe("one judge for every line", () => {
  // Each goes in the middle of a session file; listing calls it damaged exactly when open refuses it.
  const lines: [string, string][] = [
    ["a tab-only line", "\t"],
    ["spaces and a carriage return", "  \r"],
    ["a no-break space", "\u00a0"],
    ["a message with only an id", '{"type":"message","id":"x"}'],
    ["a message missing its parent", '{"type":"message","id":"x","timestamp":"t","message":{"role":"user","content":[]}}'],
    ["a compaction missing its fields", '{"type":"compaction","id":"x","parentId":null,"timestamp":"t"}'],
    ["an entry of an unknown kind", '{"type":"bookmark","id":"x","parentId":null,"timestamp":"t","text":"hi"}'],
    ["an unknown kind with an empty id", '{"type":"bookmark","id":"","parentId":null,"timestamp":"t"}'],
    ["not JSON", "{not json"],
    ["JSON that is not an object", "[1,2,3]"],
    ["two values on one line", '{"type":"bookmark","id":"x","parentId":null,"timestamp":"t"} {}'],
    ["a byte order mark", '\ufeff{"type":"bookmark","id":"x","parentId":null,"timestamp":"t"}'],
    ["a second header", '{"type":"session","version":1,"id":"s","timestamp":"t","cwd":"/work/compact","provider":"p","model":"m"}'],
    ["a control character", "\u0001"],
    ["a message with a bad role", '{"type":"message","id":"x","parentId":null,"timestamp":"t","message":{"role":"robot","content":[]}}'],
  ];
  for (const [what, line] of lines) {
    test(`${what}: listing and open agree`, async () => {
      const { s } = longSession(2);
      s.close();
      const text = readFileSync(s.sessionFile, "utf8").split("\n");
      text.splice(3, 0, line);
      writeFileSync(s.sessionFile, text.join("\n"));
      const [info] = await listSessions(CWD);
      const opened = await SessionManager.open(s.sessionFile).then(
        (m) => (m.close(), undefined),
        (e: Error) => e.message,
      );
      if (opened === undefined) expect(info!.damaged).toBeUndefined();
      else expect(`${s.sessionFile}:${info!.damaged?.replace(/^line /, "")}`).toBe(opened);
    });
  }
});

describe("the example in docs/session-format.md", () => {
  const example = docExample("A complete example");

  test("is what awl writes: every line reads back and serializes byte for byte", () => {
    expect(example.length).toBeGreaterThan(5);
    expectWrittenByAwl(example);
  });

  test("resumes from its compaction's kept prompt, as the page says", async () => {
    const s = await SessionManager.open(writeExample(example), { readOnly: true });
    expect(s.readFrom).toBeGreaterThan(0);
    expect(s.context().compaction?.n).toBe(1);
    expect(s.context().messages[1]).toBe(s.context().summary!);
    s.close();
  });
});
