// `awl -p "/name args"` runs a Markdown command as the REPL does, as Claude
// Code runs custom slash commands headless: its arguments put in, its
// !`command` parts run first as bash calls under -p's approval mode (nobody
// to ask: what needs a question is refused, with why), its model for its
// turn. A line that starts with a path (or a space) is a prompt, as in the
// REPL; a name no command has, or one of the REPL's own commands, is one
// line and exit 2, nothing sent. test/e2e/markdown-commands.test.ts: the REPL.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { e2eFixture, sessionFiles, useE2eFixture } from "./awl";
import { TODAYS_ANTHROPIC } from "../support/server";

const fx = useE2eFixture();

const config = () => join(fx.root, "config");
/** A command file: the person's ($XDG_CONFIG_HOME/awl/commands) or the project's (.claude/commands). */
function command(scope: "person" | "project", name: string, text: string, project = fx.project): void {
  const file = scope === "person" ? join(config(), "awl", "commands", `${name}.md`) : join(project, ".claude", "commands", `${name}.md`);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}
const run = (args: string[], options: { stdin?: string; env?: Record<string, string> } = {}) => fx.run(args, { ...options, env: { XDG_CONFIG_HOME: config(), ...options.env } });
const text = (t: string) => ({ blocks: [{ type: "text" as const, text: t }] });
/** The text of the prompt request `i` carried (its last user message). */
const promptIn = (i: number) => fx.server.requests[i]!.body.messages.at(-1).content.map((b: { text?: string }) => b.text ?? "").join("");

describe("awl -p /name", () => {
  test("sends the command's text with $ARGUMENTS and $1 put in and a !`echo` part's output in its place; the answer on stdout", async () => {
    command("person", "review", "---\ndescription: Review a file\n---\nReview $1 closely.\nAll: $ARGUMENTS\nChecked: !`echo checked-by-echo`\n");
    fx.server.reply(text("Looks fine."));
    const result = await run(["-p", "/review src/x.ts naming"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("Looks fine.\n");
    expect(result.stderr).toContain("bash echo checked-by-echo"); // the part ran as a bash call, shown as one
    expect(promptIn(0)).toBe("Review src/x.ts closely.\nAll: src/x.ts naming\nChecked: checked-by-echo");
    expect(fx.server.requests).toHaveLength(1);
  });

  test("what standard input holds goes before the expanded prompt as it is: a !`command` in it is text, never run", async () => {
    command("person", "review", "Review this: !`echo from-the-command`\n");
    fx.server.reply(text("Reviewed."));
    const result = await run(["-p", "/review"], { stdin: "diff --git a/x b/x\n+see !`touch from-stdin`\n" });
    expect(result.code).toBe(0);
    expect(promptIn(0)).toBe("diff --git a/x b/x\n+see !`touch from-stdin`\n\nReview this: from-the-command");
    expect(existsSync(join(fx.project, "from-stdin"))).toBe(false);
  });

  test("an argument never adds a !`command` part, and is one word for the shell inside one; a part's output and the pipe's @paths stay text", async () => {
    command("person", "fix", "Fix the issue titled: $ARGUMENTS (see @notes.md)\nIts words: !`printf '%s|' $ARGUMENTS; echo @../secret.txt`\n");
    writeFileSync(join(fx.project, "notes.md"), "the notes\n");
    writeFileSync(join(fx.root, "secret.txt"), "the secret\n");
    fx.server.reply(text("Fixed."));
    const result = await run(["-p", "/fix x;touch pwned-a !`touch pwned-b` $(touch pwned-c)"], { stdin: "log: @../secret.txt\n" });
    expect(result.code).toBe(0);
    for (const mark of ["pwned-a", "pwned-b", "pwned-c"]) expect(existsSync(join(fx.project, mark))).toBe(false);
    // Each typed word went to printf as one argument, whatever the shell would have made of it.
    expect(promptIn(0)).toContain("Its words: x;touch|pwned-a|!`touch|pwned-b`|$(touch|pwned-c)|@../secret.txt");
    const sent = JSON.stringify(fx.server.requests[0]!.body.messages);
    expect(sent).toContain("the notes");
    expect(sent).not.toContain("the secret");
  });

  test("--json: the log's lines, the expanded prompt among them, then the result line any prompt gets", async () => {
    command("person", "hello", "Say hello to $ARGUMENTS.\n");
    fx.server.reply(text("Hello, Ada."), text("Plain."));
    const commanded = await run(["-p", "/hello Ada", "--json"]);
    const plain = await run(["-p", "say something", "--json"]);
    expect(commanded.code).toBe(0);
    const lines = commanded.stdout.trim().split("\n").map((l) => JSON.parse(l));
    const user = lines.find((l) => l.type === "message" && l.message.role === "user");
    expect(JSON.stringify(user.message.content)).toContain("Say hello to Ada.");
    const result = lines.at(-1);
    const plainResult = JSON.parse(plain.stdout.trim().split("\n").at(-1)!);
    expect(result).toMatchObject({ type: "result", status: "ok", exitCode: 0, stopReason: "stop" });
    expect(Object.keys(result)).toEqual(Object.keys(plainResult));
    expect(sessionFiles(fx.sessions).filter((f) => f.includes(result.sessionId))).toHaveLength(1);
  });

  test("a project's command, not trusted: nothing is asked, its !`touch` is not run (a note says why), its allowed-tools lift nothing, and read-only refuses the model's call", async () => {
    command("project", "make", "---\nallowed-tools: Bash(touch:*)\n---\nStamp: !`touch stamped.txt`\nNow make made.txt.\n");
    fx.server.reply({ blocks: [{ type: "toolUse", name: "bash", input: { command: "touch made.txt" } }] }, text("Could not."));
    const result = await run(["-p", "/make", "--approve", "read-only"]);
    expect(result.code).toBe(0);
    expect(promptIn(0)).toContain("Stamp: [`touch stamped.txt` did not succeed: not run: this project is not trusted, and its commands run programs only once you trust it]");
    expect(JSON.stringify(fx.server.requests[1]!.body.messages.at(-1).content)).toContain("Not run: awl is in read-only mode");
    expect(existsSync(join(fx.project, "stamped.txt"))).toBe(false);
    expect(existsSync(join(fx.project, "made.txt"))).toBe(false);
    // No question, and no word of the allow-list (under -p it would change nothing): one line says why the part did not run.
    expect(result.stderr).not.toMatch(/Trust this project|Run it\?|allowed-tools/);
    expect(result.stderr.match(/not trusted/g)).toHaveLength(1);
    expect(result.stderr).toContain("add --trust to -p");
  });

  test("a project's command with --trust runs its !`command` parts", async () => {
    command("project", "stamp", "Stamp: !`touch stamped.txt && echo stamped`\n");
    fx.server.reply(text("Stamped."));
    const result = await run(["-p", "/stamp", "--trust"]);
    expect(result.code).toBe(0);
    expect(promptIn(0)).toBe("Stamp: stamped");
    expect(existsSync(join(fx.project, "stamped.txt"))).toBe(true);
  });

  test("a !`command` that would need a question (a PreToolUse hook asks for it) is refused with why: nobody can answer under -p", async () => {
    const ask = { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "ask" } };
    mkdirSync(join(config(), "awl"), { recursive: true });
    writeFileSync(join(config(), "awl", "settings.json"), JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: `echo '${JSON.stringify(ask)}'` }] }] } }));
    command("person", "stamp", "Stamp: !`touch stamped.txt`\n");
    fx.server.reply(text("Not stamped."));
    const result = await run(["-p", "/stamp"]);
    expect(result.code).toBe(0);
    expect(promptIn(0)).toBe(
      "Stamp: [`touch stamped.txt` did not succeed: Not run: this tool call needs the user's approval and awl cannot ask for it here. It needs the approval because a PreToolUse hook asks for it to be put to you.]",
    );
    expect(existsSync(join(fx.project, "stamped.txt"))).toBe(false);
  });

  test("a command's model: its turn goes to that model; one that names no model is one line, exit 2, nothing sent", async () => {
    command("person", "quick", "---\nmodel: haiku\n---\nBe quick.\n");
    command("person", "odd", "---\nmodel: not a model\n---\nGo.\n");
    fx.server.reply(text("Quick."));
    const quick = await run(["-p", "/quick"]);
    expect(quick.code).toBe(0);
    expect(fx.server.requests.map((r) => r.body.model)).toEqual(["claude-haiku-4-5"]);

    const odd = await run(["-p", "/odd"]);
    expect(odd.code).toBe(2);
    expect(odd.stderr).toMatch(/^awl: \/odd names the model "not a model", which awl cannot use \(.*\): nothing was sent\n$/);
    expect(fx.server.requests).toHaveLength(1);
  });

  test("a command's model whose provider has no key: exit 1 in one line, as --model's would be, before its !`command` parts run", async () => {
    command("person", "other", "---\nmodel: openai/gpt-5.4-mini\n---\nStamp: !`touch stamped.txt`\n");
    const result = await fx.run(["-p", "/other"], { env: { XDG_CONFIG_HOME: config(), OPENAI_API_KEY: undefined, OPENAI_BASE_URL: undefined } });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^awl: OPENAI_API_KEY is not set: export it, .*\n$/);
    expect(existsSync(join(fx.project, "stamped.txt"))).toBe(false);
    expect(fx.server.requests).toHaveLength(0);
  });

  test("an effort the command's model does not take is one line, exit 2, before its !`command` parts run", async () => {
    command("person", "quick", "---\nmodel: claude-opus-4-5\n---\nStamp: !`touch stamped.txt`\n");
    const result = await run(["-p", "/quick", "--effort", "max"]); // the session's model takes max
    expect(result.code).toBe(2);
    expect(result.stderr).toBe("awl: /quick: claude-opus-4-5 does not take effort max: it takes low, medium, high (see awl --help)\n");
    expect(existsSync(join(fx.project, "stamped.txt"))).toBe(false);
    expect(fx.server.requests).toHaveLength(0);
  });

  test("a model its provider's list lacks is refused before anything runs, with the ids nearest to it", async () => {
    const listed = await e2eFixture({ models: { anthropic: TODAYS_ANTHROPIC } });
    try {
      command("project", "quick", "---\nmodel: claude-haiku-4-6\n---\nStamp: !`touch stamped.txt`\n", listed.project);
      const result = await listed.run(["-p", "/quick"]);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe("awl: /quick: anthropic does not list claude-haiku-4-6: did you mean claude-haiku-4-5-20251001? (model: claude-haiku-4-5-20251001): nothing was sent\n");
      expect(listed.server.requests).toHaveLength(0);
      expect(existsSync(join(listed.project, "stamped.txt"))).toBe(false);
    } finally {
      await listed.cleanup();
    }
  });

  test("a line that starts with a path, or a space, is sent as it is; so is a prompt read from standard input (-p -)", async () => {
    command("person", "review", "Review $ARGUMENTS.\n");
    fx.server.reply(text("a"), text("b"), text("c"), text("d"));
    for (const prompt of ["/etc/hosts is odd", "/tmp is full?", " /review x"]) expect((await run(["-p", prompt])).code).toBe(0);
    expect((await run(["-p", "-"], { stdin: "/review x" })).code).toBe(0);
    expect([0, 1, 2, 3].map(promptIn)).toEqual(["/etc/hosts is odd", "/tmp is full?", " /review x", "/review x"]);
  });

  test("a name no command has, or one of the REPL's own commands, is one line and exit 2: nothing is sent", async () => {
    command("person", "review", "Review $ARGUMENTS.\n");
    const typo = await run(["-p", "/reveiw src/x.ts"]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toBe("awl: unknown command /reveiw: no Markdown command has that name (to send it as a prompt, begin it with a space) (see awl --help)\n");
    const model = await run(["-p", "/model sonnet"]);
    expect(model.code).toBe(2);
    expect(model.stderr).toBe("awl: /model is a command of the interactive mode, which -p does not run (-p runs Markdown commands; to send it as a prompt, begin it with a space) (see awl --help)\n");
    expect(fx.server.requests).toHaveLength(0);
    expect(sessionFiles(fx.sessions)).toEqual([]);
  });
});
