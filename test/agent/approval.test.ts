// Approval modes in the agent (src/agent/approval.ts): which calls run, which
// are asked about, which are refused, and what the log and the model get.
// Real tools, a real session on disk, the strict test server; the person's
// answers come from a scripted Ask, as the REPL's question would give them.
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join, relative } from "node:path";
import { Agent } from "../../src/agent/agent";
import { Approvals, type ApprovalMode, type Ask } from "../../src/agent/approval";
import { SessionManager } from "../../src/session";
import { answers, useAgentFixture, logLines } from "./helpers";
import { checkCall } from "../../src/tools";

const fx = useAgentFixture();

const model = { provider: "anthropic", model: "claude-sonnet-4-5" };
const newAgent = (mode: ApprovalMode) =>
  new Agent({ session: SessionManager.init({ cwd: fx.project, ...model }), cwd: fx.project, model, env: fx.env, approvals: new Approvals(mode, fx.env) });
const bash = (command: string) => ({ type: "toolUse" as const, name: "bash", input: { command } });
const never = new AbortController().signal;

/** The tool results of the last user message in the log. */
async function lastResults(agent: Agent) {
  const lines = await logLines(agent.session.sessionFile);
  return lines.filter((l) => l.type === "message" && l.message.role === "user").at(-1).message.content.filter((b: { type: string }) => b.type === "toolResult");
}

describe("ask", () => {
  test("read and read-only commands run without asking; write, edit and other commands are asked about", async () => {
    await Bun.write(join(fx.project, "notes.txt"), "hello\n");
    const agent = newAgent("ask");
    const ask = answers({ kind: "yes" }, { kind: "yes" }, { kind: "yes" });
    fx.server.reply(
      {
        blocks: [
          { type: "toolUse", name: "read", input: { path: "notes.txt" } },
          bash("ls && cat notes.txt | wc -l"),
          bash("echo made > made.txt"),
          { type: "toolUse", name: "write", input: { path: "new.txt", content: "new\n" } },
          { type: "toolUse", name: "edit", input: { path: "notes.txt", oldText: "hello", newText: "goodbye" } },
        ],
      },
      { blocks: [{ type: "text", text: "done" }] },
    );
    const result = await agent.runTurn("go", never, () => {}, ask);
    expect(result.stopReason).toBe("stop");
    expect(ask.asked.map((r) => [r.tool, r.always])).toEqual([
      ["bash", ["only this exact command"]], // no subcommand: only the exact command can be remembered
      ["write", ["write"]],
      ["edit", ["edit"]],
    ]);
    expect(await Bun.file(join(fx.project, "made.txt")).text()).toBe("made\n");
    expect(await Bun.file(join(fx.project, "notes.txt")).text()).toBe("goodbye\n");
    const results = await lastResults(agent);
    expect(results.map((r: { isError?: boolean }) => r.isError ?? false)).toEqual([false, false, false, false, false]);
    expect(results[1].content).toContain("notes.txt");
  });

  test("always: the tool, or the exact command, until the process ends", async () => {
    const agent = newAgent("ask");
    fx.server.reply(
      { blocks: [bash("mkdir -p a && touch a/one")] },
      { blocks: [bash("mkdir -p a && touch a/one"), bash("mkdir -p b && touch a/one")] }, // the same command runs; another is asked
      { blocks: [{ type: "toolUse", name: "write", input: { path: "w1.txt", content: "1" } }] },
      { blocks: [{ type: "toolUse", name: "write", input: { path: "w2.txt", content: "2" } }] }, // not asked
      { blocks: [{ type: "text", text: "done" }] },
    );
    const ask = answers({ kind: "always" }, { kind: "no" }, { kind: "always" });
    await agent.runTurn("go", never, () => {}, ask);
    expect(ask.asked.map((r) => [r.tool, r.effect.kind === "exec" ? r.effect.command : relative(fx.project, r.effect.path), r.always])).toEqual([
      ["bash", "mkdir -p a && touch a/one", ["only this exact command"]],
      ["bash", "mkdir -p b && touch a/one", ["only this exact command"]],
      ["write", "w1.txt", ["write"]],
    ]);
    for (const d of ["a/one", "w1.txt", "w2.txt"]) expect(existsSync(join(fx.project, d))).toBe(true);
    expect(existsSync(join(fx.project, "b"))).toBe(false);
    expect(agent.approvals.allowed).toEqual(["write", "mkdir -p a && touch a/one"]);
  });

  test("no, with a reason: the call's error result carries it, and the strict server accepts what follows", async () => {
    const agent = newAgent("ask");
    fx.server.reply({ blocks: [bash("rm -rf src")] }, { blocks: [{ type: "text", text: "understood" }] });
    const result = await agent.runTurn("clean up", never, () => {}, answers({ kind: "no", reason: "keep src, delete build/ instead" }));
    expect(result.stopReason).toBe("stop");
    const [refusal] = await lastResults(agent);
    expect(refusal).toEqual({
      type: "toolResult",
      toolUseId: expect.any(String),
      content: "Not run: the user declined this tool call. Their reason: keep src, delete build/ instead",
      isError: true,
    });
    const sent = fx.server.requests.at(-1)!.body.messages.at(-1).content[0];
    expect(sent).toMatchObject({ type: "tool_result", is_error: true, content: expect.stringContaining("keep src, delete build/ instead") });
    expect(fx.server.requests.every((r) => (r.status ?? 200) === 200)).toBe(true);
  });

  test("interrupted at the question: the call and those after it are not run, and the turn ends interrupted", async () => {
    const agent = newAgent("ask");
    fx.server.reply({ blocks: [bash("touch one"), bash("touch two")] });
    const controller = new AbortController();
    const ask: Ask = async () => {
      controller.abort();
      return { kind: "interrupted" };
    };
    const result = await agent.runTurn("go", controller.signal, () => {}, ask);
    expect(result.aborted).toBe(true);
    const results = await lastResults(agent);
    expect(results.map((r: { content: string }) => r.content)).toEqual(["Interrupted: this tool call was not run.", "Interrupted: this tool call was not run."]);
    expect(existsSync(join(fx.project, "one"))).toBe(false);
  });

  test("with nobody to ask, a call that needs asking is refused", async () => {
    const agent = newAgent("ask");
    fx.server.reply({ blocks: [bash("touch x")] }, { blocks: [{ type: "text", text: "ok" }] });
    await agent.runTurn("go", never, () => {});
    const [result] = await lastResults(agent);
    expect(result).toMatchObject({ isError: true, content: expect.stringContaining("needs the user's approval") });
    expect(existsSync(join(fx.project, "x"))).toBe(false);
  });

  test("the events show a refused call like any other: toolStart, then toolEnd with the error", async () => {
    const agent = newAgent("ask");
    fx.server.reply({ blocks: [bash("touch x")] }, { blocks: [{ type: "text", text: "ok" }] });
    const events: string[] = [];
    await agent.runTurn("go", never, (e) => (e.type === "toolStart" || e.type === "toolEnd") && events.push(e.type === "toolStart" ? `start ${e.summary}` : `end ${e.output.isError}`), answers({ kind: "no" }));
    expect(events).toEqual(["start touch x", "end true"]);
  });
});

describe("read-only", () => {
  test("write, edit and commands that may change files are refused with an error the model reads; read-only commands run", async () => {
    await Bun.write(join(fx.project, "notes.txt"), "hello\n");
    const agent = newAgent("read-only");
    fx.server.reply(
      {
        blocks: [
          bash("ls"),
          bash("touch made"),
          bash("cat 'unclosed"),
          { type: "toolUse", name: "write", input: { path: "w.txt", content: "x" } },
          { type: "toolUse", name: "edit", input: { path: "notes.txt", oldText: "hello", newText: "bye" } },
          { type: "toolUse", name: "read", input: { path: "notes.txt" } },
        ],
      },
      { blocks: [{ type: "text", text: "I only looked." }] },
    );
    const result = await agent.runTurn("go", never, () => {});
    expect(result.stopReason).toBe("stop");
    const results = await lastResults(agent);
    expect(results.map((r: { isError?: boolean }) => r.isError ?? false)).toEqual([false, true, true, true, true, false]);
    expect(results[1].content).toStartWith("Not run: awl is in read-only mode");
    expect(results[1].content).toContain("git status/diff/log/show");
    expect(results[2].content).toContain("could not be parsed");
    expect(results[3].content).toContain("refuses tools that change files");
    expect(existsSync(join(fx.project, "made"))).toBe(false);
    expect(existsSync(join(fx.project, "w.txt"))).toBe(false);
    expect(await Bun.file(join(fx.project, "notes.txt")).text()).toBe("hello\n");
    // The model reads them as tool errors, and the strict server takes them.
    const sent = fx.server.requests.at(-1)!.body.messages.at(-1).content;
    expect(sent.filter((b: { is_error?: boolean }) => b.is_error)).toHaveLength(4);
  });
});

describe("auto", () => {
  test("everything runs, as it is", async () => {
    const agent = newAgent("auto");
    fx.server.reply({ blocks: [bash("echo x > x.txt && rm -f nothing")] }, { blocks: [{ type: "text", text: "ok" }] });
    await agent.runTurn("go", never, () => {});
    expect(await Bun.file(join(fx.project, "x.txt")).text()).toBe("x\n");
  });
});

describe("the policy", () => {
  test("a read-only git command runs guarded, unless the person approved it as written", async () => {
    const approvals = new Approvals("ask");
    const decision = await approvals.decide(checkCall("bash", JSON.stringify({ command: "git status" })), fx.project);
    expect(decision.action).toBe("run");
    // The typed call goes on with its command guarded: nobody parses the model's JSON again.
    expect(decision.action === "run" && (decision.call as { input: { command: string } }).input.command).toStartWith("GIT_NO_LAZY_FETCH=1 GIT_ALLOW_PROTOCOL=none GIT_OPTIONAL_LOCKS=0 GIT_TERMINAL_PROMPT=0 git --no-pager --no-optional-locks -c core.fsmonitor=");
    // Other read-only commands run exactly as the model sent them.
    expect(await approvals.decide(checkCall("bash", '{"command":"ls -la"}'), fx.project)).toMatchObject({ action: "run", call: { name: "bash", input: { command: "ls -la" } } });
  });

  test("input a tool will refuse anyway is left to the tool, which says what is wrong", async () => {
    const approvals = new Approvals("read-only");
    expect((await approvals.decide(checkCall("bash", "not json"), fx.project)).action).toBe("run");
    expect((await approvals.decide(checkCall("bash", '{"command": 3}'), fx.project)).action).toBe("run");
    expect((await approvals.decide(checkCall("write", "{}"), fx.project)).action).toBe("run");
    expect((await approvals.decide(checkCall("nosuchtool", "{}"), fx.project)).action).toBe("run");
    expect((await approvals.decide(checkCall("write", '{"path":"a","content":"b"}'), fx.project)).action).toBe("refuse");
  });
});
