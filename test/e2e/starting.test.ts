// Starting awl the way people do, through the binary: `awl "prompt"` opens the
// REPL and sends it, `awl -c` resumes the latest session (`-c "fix it"` sends
// too), `awl -- sessions` sends the word; the provider follows the key that is
// set; a host that cannot be reached is one line naming the variable; a prompt
// larger than the window is refused before any request and stays in the input box.
import { describe, expect, test } from "bun:test";
import { AWL, sessionFiles, useE2eFixture } from "./awl";
import { hasTmux, useTerminal } from "./tmux";

const fx = useE2eFixture();
const term = useTerminal();
const text = (t: string) => ({ blocks: [{ type: "text" as const, text: t }] });
/** The text of every user prompt a request carried (either provider's shape). */
const prompts = (i: number): string[] =>
  fx.server.requests[i]!.body.messages
    .filter((m: { role: string }) => m.role === "user")
    .map((m: { content: string | { text?: string }[] }) => (typeof m.content === "string" ? m.content : m.content.map((b) => b.text ?? "").join("")));

describe.skipIf(!hasTmux)("starting forms in a real terminal", () => {
  test('awl "prompt" opens the REPL and sends it; awl -c resumes the latest session; awl -c "fix it" resumes and sends', async () => {
    fx.server.reply(text("The test is fixed."), text("Fixed again."));
    term.start([AWL, "fix the test"], { cwd: fx.project, env: fx.env });
    let screen = await term.waitFor(/The test is fixed\./);
    expect(screen).toMatch(/› fix the test/);
    expect(prompts(0)).toEqual(["fix the test"]);
    term.keys("C-d");
    await term.waitFor(/\[exited 0\]/);
    term.close();

    term.start([AWL, "-c"], { cwd: fx.project, env: fx.env });
    screen = await term.waitFor(/resumed [0-9a-f]+/);
    expect(screen).toContain("The test is fixed."); // the transcript
    expect(fx.server.requests).toHaveLength(1); // nothing sent
    term.keys("C-d");
    await term.waitFor(/\[exited 0\]/);
    term.close();

    term.start([AWL, "--continue", "fix it"], { cwd: fx.project, env: fx.env });
    await term.waitFor(/Fixed again\./);
    expect(prompts(1)).toEqual(["fix the test", "fix it"]);
    expect(sessionFiles(fx.sessions)).toHaveLength(1);
    term.keys("C-d");
    await term.waitFor(/\[exited 0\]/);
  });

  test("a refused port in the REPL: the status line says which try and when the next goes, then one line names the variable", async () => {
    term.start([AWL], { cwd: fx.project, env: { ...fx.env, ANTHROPIC_BASE_URL: "http://127.0.0.1:9", AWL_RETRY_BASE_MS: "2000" }, width: 160 });
    await term.waitFor(/\/help for commands/);
    term.type("hi");
    term.keys("Enter");
    await term.waitFor(/Could not reach Anthropic at 127\.0\.0\.1:9: connection refused · attempt 1 of 2, next in \d\.\d s/);
    // Then the line that says the unanswered prompt stays, and goes with the next one.
    const screen = await term.waitFor(/connection refused \(gave up after 2 tries\): check ANTHROPIC_BASE_URL\nNo answer: this prompt stays in the conversation[^\n]*\n›/);
    expect(screen).not.toContain("attempt 1 of 2"); // the status line, gone: nothing of it in the scrollback
    expect(screen.match(/Could not reach/g)).toHaveLength(1);
    term.keys("C-d");
    await term.waitFor(/\[exited 0\]/);
  });

  test("a prompt larger than the window: one line with its size and what fits, no request, and it stays in the input box", async () => {
    const huge = `summarize this: ${"lorem ipsum ".repeat(4000)}`; // ~48 KB: ~12,000 tokens against 8,000
    term.start([AWL], { cwd: fx.project, env: { ...fx.env, AWL_CONTEXT_WINDOW: "8000" }, width: 200 });
    await term.waitFor(/\/help for commands/);
    term.paste(huge);
    term.keys("Enter");
    await term.waitFor(/This prompt is about [\d,]+ tokens, and claude-sonnet-5-5 \(a window of 8,000\) has room for about [\d,]+: nothing was sent/);
    // Given back unsent, as the paste it was: the last row is the input box holding it (drawn just after the line, so waited for).
    const box = `› [pasted ${huge.length.toLocaleString("en-US")} characters]`;
    const screen = await term.waitFor(new RegExp(`\n${box.replace(/[[\]]/g, "\\$&")}\\s*$`));
    expect(screen).toContain("nothing was sent");
    expect(fx.server.requests).toHaveLength(0);
    expect(sessionFiles(fx.sessions)).toEqual([]);
    term.keys("C-c"); // clears the input box; Ctrl+D then quits at the empty prompt
    term.keys("C-d");
    await term.waitFor(/\[exited 0\]/);
  });
});

describe("starting forms without a terminal", () => {
  test("awl -- sessions sends the word as a prompt (stdin not a terminal: the REPL reads plain lines)", async () => {
    fx.server.reply(text("Sessions are files."));
    const run = await fx.run(["--", "sessions"], { stdin: "" });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Sessions are files.");
    expect(prompts(0)).toEqual(["sessions"]);
  });

  test("OPENAI_API_KEY alone: awl -p hi goes to OpenAI", async () => {
    fx.server.reply(text("hello from openai"));
    const run = await fx.run(["-p", "hi"], { env: { ANTHROPIC_API_KEY: undefined, ANTHROPIC_BASE_URL: undefined } });
    expect(run).toMatchObject({ code: 0, stdout: "hello from openai\n" });
    expect(fx.server.requests[0]!.path).toBe("/v1/chat/completions");
  });

  test("no key at all: the error names the variables", async () => {
    const run = await fx.run(["-p", "hi"], { env: { ANTHROPIC_API_KEY: undefined, ANTHROPIC_BASE_URL: undefined, OPENAI_API_KEY: undefined, OPENAI_BASE_URL: undefined } });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("ANTHROPIC_API_KEY is not set");
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
  });

  test("ANTHROPIC_BASE_URL=http://127.0.0.1:9: a progress line, then one final line naming the host and the variable, after 2 tries", async () => {
    const started = performance.now();
    const run = await fx.run(["-p", "hi"], { env: { ANTHROPIC_BASE_URL: "http://127.0.0.1:9", AWL_RETRY_BASE_MS: undefined } });
    const ms = Math.round(performance.now() - started);
    expect(run.code).toBe(1);
    const lines = run.stderr.trim().split("\n");
    expect(lines).toEqual([
      expect.stringMatching(/^Could not reach Anthropic at 127\.0\.0\.1:9: connection refused · attempt 1 of 2, next in \d\.\d s$/),
      "awl: Could not reach Anthropic at 127.0.0.1:9: connection refused (gave up after 2 tries): check ANTHROPIC_BASE_URL",
    ]);
    console.log(`connection refused on 127.0.0.1:9 with the default retry delay: final line after ${ms} ms`);
  });
});
