// Tool results tell the truth (issue 11, item 9): a tool that an abort
// (Ctrl+C, Esc, a stop signal) stopped after it started may have changed
// files, and its result says so with its output so far; only a call that
// never started says "not run". Real tools (bash), a real session on disk,
// the strict test server.
import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { Agent } from "../../src/agent/agent";
import { SessionManager } from "../../src/session";
import { useAgentFixture, logLines } from "./helpers";

const fx = useAgentFixture();

const model = { provider: "anthropic", model: "claude-sonnet-4-5" };
const newAgent = () => new Agent({ session: SessionManager.init({ cwd: fx.project, ...model }), cwd: fx.project, model, env: fx.env });

test("a tool stopped after it started: 'interrupted after it started: it may have changed files', its output so far; the next call 'not run'", async () => {
  const agent = newAgent();
  fx.server.reply({
    blocks: [
      { type: "toolUse", name: "bash", input: { command: "echo half > half.txt; echo wrote half; sleep 30; echo never" } },
      { type: "toolUse", name: "bash", input: { command: "echo second > second.txt" } },
    ],
  });
  const controller = new AbortController();
  const result = await agent.runTurn("write two files", controller.signal, (e) => {
    // Abort once the command has visibly done part of its work.
    if (e.type === "toolStart") {
      const poll = setInterval(() => existsSync(join(fx.project, "half.txt")) && (clearInterval(poll), setTimeout(() => controller.abort(), 50)), 5);
    }
  });
  expect(result.aborted).toBe(true);
  const [started, notStarted] = (await logLines(agent.session.sessionFile)).at(-1).message.content;
  expect(started.isError).toBe(true);
  expect(started.content).toStartWith("Interrupted after it started: it may have changed files. Its output so far:\n");
  expect(started.content).toContain("wrote half");
  expect(started.content).not.toContain("not run");
  expect(notStarted).toEqual({ type: "toolResult", toolUseId: expect.any(String), content: "Interrupted: this tool call was not run.", isError: true });
  expect(existsSync(join(fx.project, "second.txt"))).toBe(false);

  // What the model is told next is what the log holds, and the strict server accepts it.
  fx.server.reply({ blocks: [{ type: "text", text: "I see half of it ran." }] });
  expect((await agent.runTurn("what happened?", new AbortController().signal, () => {})).stopReason).toBe("stop");
  const sent = fx.server.requests.at(-1)!.body.messages.flatMap((m: { content: unknown }) => m.content).filter((b: { type?: string }) => b.type === "tool_result");
  expect(sent[0].content).toStartWith("Interrupted after it started");
  expect(fx.server.requests.every((r) => (r.status ?? 200) === 200)).toBe(true);
});

test("calls of a response an abort cut short never started: every one is 'not run'", async () => {
  const agent = newAgent();
  fx.server.reply({ blocks: [{ type: "toolUse", name: "bash", input: { command: "echo one > one.txt" } }, { type: "toolUse", name: "bash", input: { command: "echo two" } }] });
  const controller = new AbortController();
  // Aborted as the first call is announced, before it is started.
  await agent.runTurn("go", controller.signal, (e) => e.type === "toolStart" && controller.abort());
  const results = (await logLines(agent.session.sessionFile)).at(-1).message.content;
  expect(results).toHaveLength(2);
  for (const r of results) expect(r).toMatchObject({ isError: true, content: expect.stringMatching(/^interrupted[^\n]*not run\.?$/i) });
  expect(existsSync(join(fx.project, "one.txt"))).toBe(false);
});
