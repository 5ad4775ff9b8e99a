import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { Agent } from "../../src/agent/agent";
import type { AgentEvent } from "../../src/agent/events";
import { SessionManager } from "../../src/session";
import { useAgentFixture, logLines } from "./helpers";

const fx = useAgentFixture();

const anthropic = { provider: "anthropic", model: "claude-sonnet-4-5" };
const openai = { provider: "openai", model: "gpt-5-mini" };

function newAgent(model = anthropic) {
  const session = SessionManager.init({ cwd: fx.project, ...model });
  return new Agent({ session, cwd: fx.project, model, env: fx.env });
}

async function run(agent: Agent, prompt: string, signal = new AbortController().signal) {
  const events: AgentEvent[] = [];
  const result = await agent.runTurn(prompt, signal, (e) => events.push(e));
  return { result, events };
}

describe("a turn with tool calls", () => {
  test("logs system, user, assistant(toolUse x2), user(toolResult x2), assistant, each on disk before the next request", async () => {
    await Bun.write(join(fx.project, "notes.txt"), "alpha\nbeta\n");
    const agent = newAgent();
    const diskAtRequest: number[] = [];
    const sentAtRequest: number[] = [];
    fx.server.onRequest = async (req) => {
      diskAtRequest.push(existsSync(agent.session.sessionFile) ? (await logLines(agent.session.sessionFile)).length : 0);
      sentAtRequest.push(req.body.messages.length);
    };
    fx.server.reply(
      {
        blocks: [
          { type: "text", text: "Let me look." },
          { type: "toolUse", name: "read", input: { path: "notes.txt" } },
          { type: "toolUse", name: "bash", input: { command: "echo hi" } },
        ],
        usage: { input: 120, output: 30 },
      },
      { blocks: [{ type: "text", text: "notes.txt holds alpha and beta." }], usage: { input: 300, output: 12 } },
    );

    const { result } = await run(agent, "What is in notes.txt?");

    expect(result.stopReason).toBe("stop");
    expect(result.finalText).toBe("notes.txt holds alpha and beta.");
    expect(result.usage).toEqual({ input: 420, output: 42 });
    // The partials written while each answer streamed are tested in partials.test.ts.
    const lines = await logLines(agent.session.sessionFile);
    expect(lines.map((l) => (l.type === "message" ? l.message.role : l.type))).toEqual([
      "session", "system", "user", "session_info", "assistant", "user", "assistant",
    ]);
    const [header, system, user, title, toolCall, results, answer] = lines;
    expect(header).toMatchObject({ type: "session", version: 1, cwd: fx.project, provider: "anthropic", model: "claude-sonnet-4-5" });
    expect(system.parentId).toBeNull();
    // the first prompt names the session at once; the title hangs off the prompt, and the answer follows the prompt
    expect(title).toMatchObject({ parentId: user.id, title: "What is in notes.txt?", source: "auto" });
    const conversation = lines.filter((l) => l.type === "message");
    for (let i = 1; i < conversation.length; i++) expect(conversation[i].parentId).toBe(conversation[i - 1].id);
    expect(user).toMatchObject({ provider: "anthropic", model: "claude-sonnet-4-5", message: { content: [{ type: "text", text: "What is in notes.txt?" }] } });
    expect(toolCall.message).toMatchObject({ provider: "anthropic", model: "claude-sonnet-4-5", stopReason: "toolUse", usage: { input: 120, output: 30 } });
    expect(toolCall.message.content.map((b: any) => b.type)).toEqual(["text", "toolUse", "toolUse"]);
    expect(results).toMatchObject({ provider: "anthropic", model: "claude-sonnet-4-5" });
    expect(results.message.content.map((b: any) => b.toolUseId)).toEqual(toolCall.message.content.slice(1).map((b: any) => b.id));
    expect(results.message.content[0].content).toContain("alpha");
    expect(results.message.content[1].content).toContain("hi");
    expect(answer.message).toMatchObject({ stopReason: "stop", content: [{ type: "text", text: "notes.txt holds alpha and beta." }] });
    // header + system + title + every message the request carried were on disk when it arrived
    expect(diskAtRequest).toEqual(sentAtRequest.map((n) => n + 3));
    expect(fx.server.requests.every((r) => r.status === undefined || r.status === 200)).toBe(true);
  });

  test("tool failures become error results the model sees, never a crash", async () => {
    await Bun.write(join(fx.project, "dup.txt"), "x\nx\n");
    const agent = newAgent();
    fx.server.reply(
      {
        blocks: [
          { type: "toolUse", name: "read", input: { path: "missing.txt" } },
          { type: "toolUse", name: "bash", input: { command: "exit 3" } },
          { type: "toolUse", name: "edit", input: { path: "dup.txt", oldText: "x", newText: "y" } },
          { type: "toolUse", name: "bash", input: { command: "sleep 20", timeout: 1 } },
        ],
      },
      { blocks: [{ type: "text", text: "All four failed." }] },
    );
    const { result } = await run(agent, "try things");
    expect(result.stopReason).toBe("stop");
    const results = (await logLines(agent.session.sessionFile))[5].message.content; // header, system, prompt, title, calls, results
    expect(results.map((r: any) => r.isError)).toEqual([true, true, true, true]);
    expect(results[1].content).toContain("3");
    expect(results[2].content).toMatch(/2/);
    expect(results[3].content).toMatch(/timed out/i);
    const sent = fx.server.requests.at(-1)!.body.messages.at(-1).content;
    expect(sent.filter((b: any) => b.type === "tool_result" && b.is_error)).toHaveLength(4);
  });
});

describe("interruptions", () => {
  test("abort mid-stream keeps the partial answer in the log and the next prompt is accepted", async () => {
    const agent = newAgent();
    fx.server.reply({ blocks: [{ type: "text", text: "one two three four five six seven eight nine ten" }], chunk: 4, delayMs: 40 });
    const controller = new AbortController();
    const events: AgentEvent[] = [];
    const result = await agent.runTurn("count", controller.signal, (e) => {
      events.push(e);
      if (e.type === "delta") controller.abort();
    });
    expect(result.aborted).toBe(true);
    const lines = await logLines(agent.session.sessionFile);
    const partial = lines.at(-1).message;
    expect(partial.role).toBe("assistant");
    expect(partial.stopReason).toBe("error");
    expect(partial.content[0].text.length).toBeGreaterThan(0);
    expect("one two three four five six seven eight nine ten".startsWith(partial.content[0].text)).toBe(true);

    fx.server.reply({ blocks: [{ type: "text", text: "ok" }] });
    const next = await run(agent, "go on");
    expect(next.result.stopReason).toBe("stop");
    expect(fx.server.requests.at(-1)!.status ?? 200).toBe(200);
  });

  test("abort while a tool runs kills it, records that, and the next prompt is accepted", async () => {
    const agent = newAgent();
    fx.server.reply({
      blocks: [
        { type: "toolUse", name: "bash", input: { command: "sleep 30" } },
        { type: "toolUse", name: "bash", input: { command: "echo never" } },
      ],
    });
    const controller = new AbortController();
    const result = await agent.runTurn("sleep", controller.signal, (e) => {
      if (e.type === "toolStart") setTimeout(() => controller.abort(), 100);
    });
    expect(result.aborted).toBe(true);
    const results = (await logLines(agent.session.sessionFile)).at(-1).message.content;
    expect(results).toHaveLength(2);
    expect(results.every((r: any) => r.isError)).toBe(true);
    expect(results[0].content).toMatch(/interrupt/i);
    expect(results[1].content).toMatch(/not run/i);

    fx.server.reply({ blocks: [{ type: "text", text: "fine" }] });
    expect((await run(agent, "never mind")).result.stopReason).toBe("stop");
  });

  test("a resumed session with unanswered tool calls answers them, before the prompt, as calls that may or may not have run", async () => {
    const first = newAgent();
    fx.server.reply({ blocks: [{ type: "toolUse", name: "bash", input: { command: "sleep 30" } }], delayMs: 0 });
    const controller = new AbortController();
    // the tool call is logged, then the process "dies" before running it: simulate by aborting at toolStart
    await first.runTurn("go", controller.signal, (e) => e.type === "toolStart" && controller.abort());
    const path = first.session.sessionFile;
    first.session.close();
    // cut the log back to the assistant's tool call, as a crash before the results would leave it
    const lines = (await Bun.file(path).text()).split("\n").filter(Boolean);
    await Bun.write(path, lines.slice(0, -1).join("\n") + "\n");

    const session = await SessionManager.open(path);
    const agent = new Agent({ session, cwd: fx.project, model: session.activeModel() as typeof anthropic, env: fx.env });
    fx.server.reply({ blocks: [{ type: "text", text: "understood" }] });
    await run(agent, "what happened?");
    const user = (await logLines(path))[5].message.content; // header, system, prompt, title, calls, then this
    expect(user[0]).toMatchObject({ type: "toolResult", isError: true, content: expect.stringContaining("may or may not have run") });
    expect(user[1]).toMatchObject({ type: "text", text: "what happened?" });
    session.close();
  });
});

describe("switching models", () => {
  test("after /model the next user entries carry the new stamp and requests go to the other provider", async () => {
    const agent = newAgent();
    fx.server.reply({ blocks: [{ type: "thinking", thinking: "hmm" }, { type: "toolUse", name: "bash", input: { command: "echo a" } }] }, { blocks: [{ type: "text", text: "a" }] });
    await run(agent, "first");
    agent.setModel(openai);
    fx.server.reply({ blocks: [{ type: "toolUse", name: "bash", input: { command: "echo b" } }] }, { blocks: [{ type: "text", text: "b" }] });
    await run(agent, "second");
    agent.setModel(anthropic);
    fx.server.reply({ blocks: [{ type: "text", text: "c" }] });
    const third = await run(agent, "third");
    expect(third.result.stopReason).toBe("stop");

    const users = (await logLines(agent.session.sessionFile)).filter((l) => l.message?.role === "user");
    expect(users.map((u) => u.provider)).toEqual(["anthropic", "anthropic", "openai", "openai", "anthropic"]);
    expect(fx.server.requests.map((r) => r.path)).toEqual([
      "/v1/messages", "/v1/messages", "/v1/chat/completions", "/v1/chat/completions", "/v1/messages",
    ]);
    expect(fx.server.requests.every((r) => (r.status ?? 200) === 200)).toBe(true);
    expect(agent.session.activeModel()).toEqual(anthropic);
  });
});
