// A Markdown command's turn through the Agent (agent/command-turn.ts): its
// `!`cmd`` parts run as the model's bash calls would (asked in ask mode,
// refused in read-only) and their output goes in the prompt; its
// allowed-tools hold for that turn only, never past read-only, and a
// project's only once the project is trusted; its model takes that turn's
// requests, then the session's is back. Real command files, real tools, a
// real session on disk, the strict test server.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { Agent } from "../../src/agent/agent";
import { Approvals, type ApprovalMode } from "../../src/agent/approval";
import { prepareCommandTurn, runCommandTurn } from "../../src/agent/command-turn";
import { loadMarkdownCommands } from "../../src/extensions/commands/markdown-commands";
import type { CodeScope } from "../../src/extensions/trust";
import { UserError } from "../../src/errors";
import { SessionManager } from "../../src/session";
import { answers, useAgentFixture } from "./helpers";
import { hostWith } from "../support/extension-host";

const fx = useAgentFixture();

const model = { provider: "anthropic" as const, model: "claude-sonnet-4-5" };
const never = new AbortController().signal;
const newAgent = (mode: ApprovalMode, code: CodeScope = { person: true, project: false }) =>
  new Agent({ session: SessionManager.init({ cwd: fx.project, ...model }), cwd: fx.project, model, env: fx.env, approvals: new Approvals(mode, fx.env), code });

/** A command file: the person's (in $XDG_CONFIG_HOME/awl/commands) or the project's (.claude/commands). */
function command(scope: "person" | "project", name: string, text: string) {
  const file = scope === "person" ? join(fx.env.XDG_CONFIG_HOME!, "awl", "commands", `${name}.md`) : join(fx.project, ".claude", "commands", `${name}.md`);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  const found = loadMarkdownCommands(fx.project, fx.env, []).commands.find((c) => c.name === name);
  if (!found) throw new Error(`${name} did not load`);
  return found;
}

const touch = (path: string) => ({ type: "toolUse" as const, name: "bash", input: { command: `touch ${path}` } });
const done = { blocks: [{ type: "text" as const, text: "done" }] };
/** The text of the prompt a request carried (its last user message). */
const promptOf = (i: number) => JSON.stringify(fx.server.requests[i]!.body.messages.at(-1));
/** The result the model was sent for its first call, in request `i`. */
const resultIn = (i: number) => JSON.stringify(fx.server.requests[i]!.body.messages.at(-1).content);

describe("allowed-tools", () => {
  test("a call the person's command allows runs unasked during its turn; before and after it, the same call is asked about", async () => {
    const agent = newAgent("ask");
    const make = command("person", "make", "---\nallowed-tools: Read, Bash(touch:*)\n---\nMake the files.\n");
    fx.server.reply({ blocks: [touch("before.txt")] }, done, { blocks: [touch("during.txt")] }, done, { blocks: [touch("after.txt")] }, done);
    const ask = answers({ kind: "no" }, { kind: "no" });

    await agent.runTurn("make one", never, () => {}, ask);
    const turn = prepareCommandTurn(agent, make, "");
    expect(turn.notices).toEqual([]);
    await runCommandTurn(agent, turn, never, () => {}, ask);
    await agent.runTurn("make another", never, () => {}, ask);

    expect(ask.asked.map((r) => r.effect)).toEqual([
      { kind: "exec", command: "touch before.txt" },
      { kind: "exec", command: "touch after.txt" },
    ]);
    expect(existsSync(join(fx.project, "before.txt"))).toBe(false);
    expect(existsSync(join(fx.project, "during.txt"))).toBe(true);
    expect(existsSync(join(fx.project, "after.txt"))).toBe(false);
  });

  test("read-only mode still refuses what a command allows", async () => {
    const agent = newAgent("read-only");
    const make = command("person", "make", "---\nallowed-tools: Bash\n---\nMake the file.\n");
    fx.server.reply({ blocks: [touch("made.txt")] }, done);
    await runCommandTurn(agent, prepareCommandTurn(agent, make, ""), never, () => {}, answers());
    expect(existsSync(join(fx.project, "made.txt"))).toBe(false);
    expect(resultIn(1)).toContain("Not run: awl is in read-only mode");
  });

  test("a project's command allows nothing until the project is trusted, and says so; trusted, it allows", async () => {
    const untrusted = newAgent("ask", { person: true, project: false });
    const theirs = command("project", "make", "---\nallowed-tools: Bash(touch:*)\n---\nMake the file.\n");
    fx.server.reply({ blocks: [touch("untrusted.txt")] }, done, { blocks: [touch("trusted.txt")] }, done);
    const ask = answers({ kind: "no" });
    const turn = prepareCommandTurn(untrusted, theirs, "");
    expect(turn.allow).toEqual([]);
    expect(turn.notices).toEqual(["This project is not trusted, so the allowed-tools of its Markdown commands are ignored: their tools are asked about as usual (trust the project to let them count)."]);
    await runCommandTurn(untrusted, turn, never, () => {}, ask);
    expect(ask.asked.map((r) => r.effect)).toEqual([{ kind: "exec", command: "touch untrusted.txt" }]);
    expect(existsSync(join(fx.project, "untrusted.txt"))).toBe(false);

    const trusted = newAgent("ask", { person: true, project: true });
    await runCommandTurn(trusted, prepareCommandTurn(trusted, theirs, ""), never, () => {}, answers());
    expect(existsSync(join(fx.project, "trusted.txt"))).toBe(true);
  });

  test("an entry that is not a rule is named and left out; the others count", () => {
    const agent = newAgent("ask");
    const turn = prepareCommandTurn(agent, command("person", "odd", "---\nallowed-tools: Bash(echo a, b), Read(), Edit(src/**)\n---\nGo.\n"), "");
    expect(turn.allow.map((r) => r.text)).toEqual(["Bash(echo a, b)", "Edit(src/**)"]);
    expect(turn.notices).toEqual(['/odd: allowed-tools "Read()" has nothing in its parentheses; it is ignored']);
  });
});

describe("model", () => {
  test("the command's turn goes to its model (an alias: the newest of the family); the next turn to the session's again", async () => {
    const agent = newAgent("auto");
    const quick = command("person", "quick", "---\nmodel: haiku\n---\nBe quick.\n");
    fx.server.reply(done, done);
    await runCommandTurn(agent, prepareCommandTurn(agent, quick, ""), never, () => {});
    expect(agent.model).toEqual(model);
    await agent.runTurn("and now?", never, () => {});
    expect(fx.server.requests.map((r) => r.body.model)).toEqual(["claude-haiku-4-5", "claude-sonnet-4-5"]);
  });

  test("a model that names none is one line, and nothing is sent", () => {
    const agent = newAgent("auto");
    const odd = command("person", "odd", "---\nmodel: not a model\n---\nGo.\n");
    expect(() => prepareCommandTurn(agent, odd, "")).toThrow(UserError);
    expect(() => prepareCommandTurn(agent, odd, "")).toThrow(/^\/odd names the model "not a model", which awl cannot use \(.*\): nothing was sent$/);
    expect(fx.server.requests).toHaveLength(0);
  });
});

describe("!`command` parts", () => {
  test("each runs before the prompt is written, as a bash call would, and its output takes its place; a failed one says so", async () => {
    const agent = newAgent("ask");
    writeFileSync(join(fx.project, "notes.txt"), "the notes\n");
    const context = command("person", "context", "Files: !`ls`\nNotes: !`cat $1`\nGone: !`cat missing.txt`\nSummarize.\n");
    fx.server.reply(done);
    await runCommandTurn(agent, prepareCommandTurn(agent, context, "notes.txt"), never, () => {}, answers());
    const sent = promptOf(0);
    expect(sent).toContain("Files: notes.txt");
    expect(sent).toContain("Notes: the notes\\nGone: [`cat missing.txt` did not succeed: ");
    expect(sent).toContain("No such file");
    expect(sent).not.toContain("!`");
    // Nothing of the commands enters the conversation but the prompt.
    expect(fx.server.requests[0]!.body.messages).toHaveLength(1);
  });

  test("a project's command runs them only once the project is trusted: until then each is a note, nothing runs and nothing is asked", async () => {
    const stamp = command("project", "stamp", "Stamp: !`touch stamp.txt && echo stamped`\nGo on.\n");
    fx.server.reply(done, done);
    const untrusted = newAgent("auto");
    const turn = prepareCommandTurn(untrusted, stamp, "");
    expect(turn.notices.join("\n")).toContain("not trusted, so the !`command` parts of its Markdown commands are not run");
    await runCommandTurn(untrusted, turn, never, () => {}, answers());
    expect(promptOf(0)).toContain("Stamp: [`touch stamp.txt && echo stamped` did not succeed: not run: this project is not trusted");
    expect(existsSync(join(fx.project, "stamp.txt"))).toBe(false);
    const trusted = newAgent("auto", { person: true, project: true });
    await runCommandTurn(trusted, prepareCommandTurn(trusted, stamp, ""), never, () => {}, answers());
    expect(promptOf(1)).toContain(JSON.stringify("Stamp: stamped\nGo on."));
    expect(existsSync(join(fx.project, "stamp.txt"))).toBe(true);
  });

  test("one that may change files is asked about in ask mode (no: a note in its place) and refused in read-only; the prompt still goes", async () => {
    const stamp = command("person", "stamp", "Stamp: !`touch stamp.txt && echo stamped`\nGo on.\n");
    const ask = answers({ kind: "no" });
    fx.server.reply(done, done);
    const asking = newAgent("ask");
    await runCommandTurn(asking, prepareCommandTurn(asking, stamp, ""), never, () => {}, ask);
    expect(ask.asked.map((r) => r.effect)).toEqual([{ kind: "exec", command: "touch stamp.txt && echo stamped" }]);
    expect(promptOf(0)).toContain("Stamp: [`touch stamp.txt && echo stamped` did not succeed: Not run: the user declined this tool call.]");

    const readOnly = newAgent("read-only");
    await runCommandTurn(readOnly, prepareCommandTurn(readOnly, stamp, ""), never, () => {}, answers());
    expect(promptOf(1)).toContain("Stamp: [`touch stamp.txt && echo stamped` did not succeed: Not run: awl is in read-only mode");
    expect(promptOf(1)).toContain("Go on.");
    expect(existsSync(join(fx.project, "stamp.txt"))).toBe(false);
  });

  test("stopped while they run (Esc, Ctrl+C), nothing is sent or written, and the command is given back", async () => {
    const agent = newAgent("auto");
    const slow = command("person", "slow", "Wait: !`sleep 30`\n");
    const controller = new AbortController();
    const result = await runCommandTurn(agent, prepareCommandTurn(agent, slow, ""), controller.signal, (event) => {
      if (event.type === "toolStart") controller.abort();
    });
    expect(result).toMatchObject({ aborted: true, promptBlocked: true });
    expect(fx.server.requests).toHaveLength(0);
    expect(agent.conversation.messages).toHaveLength(0);
  });

  test("the command's allowed-tools cover its own !`command` parts", async () => {
    const agent = newAgent("ask");
    const stamp = command("person", "stamp", "---\nallowed-tools: Bash(touch:*)\n---\nStamp: !`touch stamp.txt`\n");
    fx.server.reply(done);
    await runCommandTurn(agent, prepareCommandTurn(agent, stamp, ""), never, () => {}, answers());
    expect(existsSync(join(fx.project, "stamp.txt"))).toBe(true);
  });

  test("the extensions' before_tool_call handlers hear them, and a refusal is the note", async () => {
    const heard: unknown[] = [];
    const { host } = hostWith([(awl) => awl.on("before_tool_call", (call) => (heard.push(call.input), { refuse: "the guard says no" }))]);
    const session = SessionManager.init({ cwd: fx.project, ...model });
    host.bind(session);
    const agent = new Agent({ session, cwd: fx.project, model, env: fx.env, seam: host.seam() });
    const status = command("person", "status", "Status: !`echo fine`\n");
    fx.server.reply(done);
    await runCommandTurn(agent, prepareCommandTurn(agent, status, ""), never, () => {});
    expect(heard).toEqual([{ command: "echo fine" }]);
    expect(promptOf(0)).toContain("Status: [`echo fine` did not succeed: the guard says no]");
  });
});
