import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { textMessage } from "../../src/conversation";
import { UserError } from "../../src/errors";
import { encodeCwd, messageToDisk, newEntryId, SessionManager } from "../../src/session";
import { SPEC, specFile, useSessionRoot } from "./helpers";

const root = useSessionRoot();
const CWD = "/work/project";
const CLAUDE = { provider: "anthropic", model: "claude-sonnet-4-5" };
const GPT = { provider: "openai", model: "gpt-4o" };

/** A spec-example session file written by hand in this cwd's folder. */
function writeSession(text: string, name = "2026-04-25T17-40-15-990Z_019dc5ba-53f6-71a5-ab8f-b1f8709c2572.jsonl"): string {
  const dir = join(process.env.AWL_SESSION_DIR!, encodeCwd(CWD));
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const lines = (path: string) => readFileSync(path, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l));

async function reopen(s: SessionManager): Promise<SessionManager> {
  s.close();
  return SessionManager.open(s.sessionFile);
}

describe("a new session", () => {
  test("leaves nothing on disk until the first message", () => {
    const s = SessionManager.init({ cwd: CWD, ...CLAUDE });
    expect(s.sessionFile.startsWith(join(process.env.AWL_SESSION_DIR!, "--work-project--"))).toBe(true);
    expect(basename(s.sessionFile)).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z_[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\.jsonl$/);
    expect(basename(s.sessionFile)).toContain(s.sessionId);
    expect(existsSync(root() + "/sessions")).toBe(false);
    expect(s.messageCount()).toBe(0);
    expect(s.getLeafId()).toBeNull();
    expect(s.activeModel()).toEqual(CLAUDE);
    s.close();
    expect(existsSync(root() + "/sessions")).toBe(false);
  });

  test("the first message writes the header, then each message is one line on disk when append returns", () => {
    const s = SessionManager.init({ cwd: CWD, ...CLAUDE });
    const a = s.appendMessage(messageToDisk(textMessage("system", "be brief")));
    expect(lines(s.sessionFile)).toHaveLength(2);
    const b = s.appendMessage(messageToDisk(textMessage("user", "hi")), CLAUDE);
    const [header, system, user] = lines(s.sessionFile);
    expect(header).toEqual({ type: "session", version: 1, id: s.sessionId, timestamp: s.header.timestamp, cwd: CWD, ...CLAUDE });
    expect(system).toMatchObject({ type: "message", id: a, parentId: null });
    expect(user).toMatchObject({ type: "message", id: b, parentId: a, ...CLAUDE });
    expect(a).toMatch(/^[0-9a-f]{8}$/);
    expect(new Date(user.timestamp).toISOString()).toBe(user.timestamp);
    s.close();
  });

  test("a user message without the provider/model stamp is refused, nothing written", () => {
    const s = SessionManager.init({ cwd: CWD, ...CLAUDE });
    expect(() => s.appendMessage(messageToDisk(textMessage("user", "hi")))).toThrow(/stamp/);
    expect(existsSync(s.sessionFile)).toBe(false);
    s.close();
  });

  test("an entry over the 64 MB line limit is refused, saying truly what happened: an answer was received, a prompt was not sent", () => {
    const s = SessionManager.init({ cwd: CWD, ...CLAUDE });
    s.appendMessage(messageToDisk(textMessage("system", "sys")));
    const before = readFileSync(s.sessionFile, "utf8");
    const huge = "x".repeat(64 * 1024 * 1024 + 1);
    const answer = () => s.appendMessage(messageToDisk(textMessage("assistant", huge), { ...CLAUDE, stopReason: "stop" }));
    expect(answer).toThrow(UserError);
    expect(answer).toThrow("the model's answer was received but is too large to save (over 64 MB): it was not saved, and the session goes on without it");
    expect(answer).not.toThrow(/nothing was sent/);
    expect(() => s.appendMessage(messageToDisk(textMessage("user", huge)), CLAUDE)).toThrow("this message is too large to save (over 64 MB); nothing was sent");
    expect(readFileSync(s.sessionFile, "utf8")).toBe(before);
    s.close();
  });

  test("a malformed message is refused before it reaches the log", () => {
    const s = SessionManager.init({ cwd: CWD, ...CLAUDE });
    const bad = { role: "assistant", content: [{ type: "toolUse", id: "x", name: "bash", input: { command: "ls" } }] };
    expect(() => s.appendMessage(bad as never)).toThrow(/input/);
    expect(s.messageCount()).toBe(0);
    s.close();
  });
});

describe("resuming", () => {
  test("system, user, assistant and tool-result messages rebuild into the same conversation", async () => {
    const s = SessionManager.init({ cwd: CWD, ...CLAUDE });
    const conversation = [
      textMessage("system", "You are awl."),
      textMessage("user", "list files"),
      {
        role: "assistant" as const,
        model: CLAUDE.model, // rebuilt from the entry's model: where its reasoning may go back
        content: [
          { type: "thinking" as const, thinking: "ls will do", signature: "sig" },
          { type: "text" as const, text: "Checking." },
          { type: "toolUse" as const, id: "t1", name: "bash", input: '{"command":"ls"}' },
        ],
      },
      { role: "user" as const, content: [{ type: "toolResult" as const, toolUseId: "t1", content: "a.txt", isError: false }] },
      { ...textMessage("assistant", "One file: a.txt"), model: CLAUDE.model },
    ];
    for (const m of conversation) s.appendMessage(messageToDisk(m, m.role === "assistant" ? { ...CLAUDE, stopReason: "stop" } : {}), m.role === "user" ? CLAUDE : undefined);
    const before = s.getBranch();
    const reopened = await reopen(s);
    expect(reopened.rebuildConversation().messages).toEqual(conversation);
    expect(reopened.getBranch()).toEqual(before);
    expect(reopened.messageCount()).toBe(5);
    reopened.close();
  });

  test("the spec's example file rebuilds into the expected conversation", async () => {
    const s = await SessionManager.open(writeSession(specFile()));
    expect(s.sessionId).toBe("019dc5ba-53f6-71a5-ab8f-b1f8709c2572");
    expect(s.cwd).toBe("/Users/travis/Code/awl");
    expect(s.rebuildConversation().messages).toEqual([
      textMessage("system", "You are a helpful assistant."),
      textMessage("user", "What files are in this directory?"),
      {
        role: "assistant",
        model: "claude-sonnet-4-20250514",
        content: [
          { type: "thinking", thinking: "The user wants to list files..." },
          { type: "text", text: "I'll check that for you." },
          { type: "toolUse", id: "tool_abc123", name: "bash", input: '{"command":"ls"}' },
        ],
      },
      { role: "user", content: [{ type: "toolResult", toolUseId: "tool_abc123", content: "file1.txt\nfile2.txt" }] },
    ]);
    expect(s.activeModel()).toEqual({ provider: "openai", model: "gpt-4o" });
    s.close();
  });

  test("appending after a resume continues the chain from the last entry", async () => {
    const path = writeSession(specFile());
    const s = await SessionManager.open(path);
    const id = s.appendMessage(messageToDisk(textMessage("assistant", "done")));
    expect(s.getEntry(id)?.parentId).toBe("c3d4e5f6");
    expect(readFileSync(path, "utf8").startsWith(specFile())).toBe(true);
    s.close();
  });

  test("a header-only file opens as an empty conversation that can be continued", async () => {
    const path = writeSession(`${SPEC.header}\n`);
    const s = await SessionManager.open(path);
    expect(s.messageCount()).toBe(0);
    expect(s.getLeafId()).toBeNull();
    expect(s.rebuildConversation().messages).toEqual([]);
    expect(s.activeModel()).toEqual({ provider: "anthropic", model: "claude-sonnet-4-20250514" });
    const id = s.appendMessage(messageToDisk(textMessage("user", "hello")), GPT);
    expect(s.getEntry(id)?.parentId).toBeNull();
    expect(lines(path).map((l) => l.type)).toEqual(["session", "message", "session_info"]); // its first prompt names it
    s.close();
  });

  test("an empty file is refused as not a session, and left alone", async () => {
    const path = writeSession("");
    const error = await SessionManager.open(path).catch((e) => e);
    expect(error).toBeInstanceOf(UserError);
    expect(error.message).toContain(path);
    expect(error.message).toMatch(/empty/);
    expect(readFileSync(path, "utf8")).toBe("");
  });

  test("a file that is not a session says so in one line", async () => {
    const path = writeSession('{"hello":"world"}\n');
    const error = await SessionManager.open(path).catch((e) => e);
    expect(error).toBeInstanceOf(UserError);
    expect(error.message).toStartWith(`${path}:1: `);
    expect(error.message).not.toContain("\n");
    expect((await SessionManager.open(join(dirname(path), "missing.jsonl")).catch((e) => e)).message).toMatch(/no session file/);
  });
});

describe("model tracking", () => {
  test("every user message carries the model it went to; activeModel follows a mid-session change", async () => {
    const s = SessionManager.init({ cwd: CWD, ...CLAUDE });
    s.appendMessage(messageToDisk(textMessage("user", "one")), CLAUDE);
    s.appendMessage(messageToDisk(textMessage("assistant", "1"), { ...CLAUDE, stopReason: "stop" }));
    expect(s.activeModel()).toEqual(CLAUDE);
    s.appendMessage(messageToDisk(textMessage("user", "two")), GPT);
    s.appendMessage(messageToDisk({ role: "assistant", content: [{ type: "toolUse", id: "t", name: "bash", input: "{}" }] }, { ...GPT, stopReason: "toolUse" }));
    s.appendMessage(messageToDisk({ role: "user", content: [{ type: "toolResult", toolUseId: "t", content: "ok" }] }), GPT);
    expect(s.activeModel()).toEqual(GPT);
    const users = lines(s.sessionFile).filter((l) => l.message?.role === "user");
    expect(users.map((u) => [u.provider, u.model])).toEqual([
      ["anthropic", "claude-sonnet-4-5"],
      ["openai", "gpt-4o"],
      ["openai", "gpt-4o"],
    ]);
    const assistants = lines(s.sessionFile).filter((l) => l.message?.role === "assistant");
    expect(assistants.every((a) => a.provider === undefined && a.message.provider)).toBe(true);
    const reopened = await reopen(s);
    expect(reopened.activeModel()).toEqual(GPT);
    expect(reopened.header.provider).toBe("anthropic");
    reopened.close();
  });
});

describe("the entry tree", () => {
  test("getBranch returns root to leaf, from the leaf or from any entry", async () => {
    const s = await SessionManager.open(writeSession(specFile()));
    expect(s.getBranch().map((e) => e.id)).toEqual(["s1s2s3s4", "a1b2c3d4", "b2c3d4e5", "c3d4e5f6"]);
    expect(s.getBranch("b2c3d4e5").map((e) => e.id)).toEqual(["s1s2s3s4", "a1b2c3d4", "b2c3d4e5"]);
    expect(s.getBranch(null)).toEqual([]);
    expect(s.getBranch("nope")).toEqual([]);
    expect(s.getLeafId()).toBe("c3d4e5f6");
    s.close();
  });

  test("an entry of an unknown type in the middle of the chain is indexed, and skipped by the rebuild", async () => {
    const label = '{"type":"bookmark","id":"cccc0000","parentId":"a1b2c3d4","timestamp":"2026-04-25T14:00:01.500Z","label":"..."}';
    const assistant = SPEC.assistant.replace('"parentId":"a1b2c3d4"', '"parentId":"cccc0000"');
    const s = await SessionManager.open(writeSession([SPEC.header, SPEC.system, SPEC.stampedUser, label, assistant].join("\n") + "\n"));
    expect(s.getBranch().map((e) => e.type)).toEqual(["message", "message", "opaque", "message"]);
    expect(s.getEntry("cccc0000")).toEqual({ type: "opaque", kind: "bookmark", id: "cccc0000", parentId: "a1b2c3d4", timestamp: "2026-04-25T14:00:01.500Z" });
    expect(s.rebuildConversation().messages.map((m) => m.role)).toEqual(["system", "user", "assistant"]);
    expect(s.messageCount()).toBe(3);
    s.close();
  });

  test("a parent cycle or a missing parent ends the branch instead of hanging", async () => {
    const a = '{"type":"message","id":"aaaa","parentId":"bbbb","timestamp":"t","message":{"role":"system","content":[]}}';
    const b = '{"type":"message","id":"bbbb","parentId":"aaaa","timestamp":"t","message":{"role":"system","content":[]}}';
    const cyclic = await SessionManager.open(writeSession([SPEC.header, a, b].join("\n") + "\n", "cycle.jsonl"));
    expect(cyclic.getBranch().map((e) => e.id)).toEqual(["aaaa", "bbbb"]);
    expect(cyclic.rebuildConversation().messages).toHaveLength(2);
    cyclic.close();
    const orphan = SPEC.toolResults.replace('"parentId":"b2c3d4e5"', '"parentId":"gone"');
    const broken = await SessionManager.open(writeSession([SPEC.header, SPEC.system, orphan].join("\n") + "\n", "orphan.jsonl"));
    expect(broken.getBranch().map((e) => e.id)).toEqual(["c3d4e5f6"]);
    broken.close();
  });
});

describe("forward compatibility", () => {
  test("a header of format version 2 opens read-only and refuses appends with a reason", async () => {
    const path = writeSession(specFile().replace('"version":1', '"version":2'));
    const before = readFileSync(path, "utf8");
    const s = await SessionManager.open(path);
    expect(s.readOnly).toBe(true);
    expect(s.readOnlyReason).toMatch(/version 2/);
    expect(s.rebuildConversation().messages).toHaveLength(4);
    expect(() => s.appendMessage(messageToDisk(textMessage("assistant", "x")))).toThrow(UserError);
    s.close();
    expect(readFileSync(path, "utf8")).toBe(before);
    expect(readdirSync(dirname(path))).toEqual([basename(path)]);
  });

  test("a file of a newer format whose lines this version cannot read says to upgrade, not that it is damaged", async () => {
    const newer = specFile().replace('"version":1', '"version":3').replace('"role":"system"', '"role":"developer"');
    const path = writeSession(newer);
    const error = await SessionManager.open(path).catch((e) => e);
    expect(error).toBeInstanceOf(UserError);
    expect(error.message).toMatch(/session format version 3, newer than this awl understands \(1\): upgrade awl to open it \(.*:2: /);
    expect(readFileSync(path, "utf8")).toBe(newer);
  });

  test("close is idempotent and a closed session takes no more messages", () => {
    const s = SessionManager.init({ cwd: CWD, ...CLAUDE });
    s.appendMessage(messageToDisk(textMessage("system", "x")));
    s.close();
    s.close();
    expect(() => s.appendMessage(messageToDisk(textMessage("system", "y")))).toThrow(/closed/);
  });
});

describe("entry ids", () => {
  test("are 8 random hex characters, drawn again when one is already taken", () => {
    let tries = 0;
    const id = newEntryId({ has: () => ++tries <= 3 });
    expect(tries).toBe(4);
    expect(id).toMatch(/^[0-9a-f]{8}$/);
    const many = new Set(Array.from({ length: 1000 }, () => newEntryId(new Set())));
    expect(many.size).toBeGreaterThan(990);
  });
});
