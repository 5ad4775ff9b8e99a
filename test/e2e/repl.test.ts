import { describe, expect, test } from "bun:test";
import { AWL, e2eFixture, sessionFiles, useE2eFixture } from "./awl";
import { hasTmux, useTerminal } from "./tmux";
import { readLog } from "../support/session-log";

const fx = useE2eFixture();
const term = useTerminal();

describe.skipIf(!hasTmux)("the REPL in a real terminal", () => {
  test("type a prompt, see the streamed answer, /model, /session, quit with Ctrl+D", async () => {
    fx.server.reply(
      { blocks: [{ type: "toolUse", name: "bash", input: { command: "echo tool-ran" } }] },
      { blocks: [{ type: "text", text: "The answer is forty-two." }], chunk: 3, delayMs: 5 },
      { blocks: [{ type: "text", text: "Now from the other one." }] },
    );
    term.start([AWL], { cwd: fx.project, env: fx.env });
    await term.waitFor(/\/help for commands/);
    term.type("what is the answer?");
    term.keys("Enter");
    let screen = await term.waitFor(/The answer is forty-two\./);
    expect(screen).toContain("bash echo tool-ran");
    expect(screen).toMatch(/tool-ran/);
    await term.waitFor(/↑ .* in[^·]* · ↓ .* out/);

    term.type("/model");
    term.keys("Enter");
    await term.waitFor(/claude-sonnet-5-5 [\s\S]*?\(in use\)/); // the picker, the model in use marked
    term.keys("Escape");
    await term.waitFor(/\n›\s*$/);
    term.type("/model openai/gpt-4o");
    term.keys("Enter");
    await term.waitFor(/Using openai\/gpt-4o/);
    term.type("and now?");
    term.keys("Enter");
    await term.waitFor(/Now from the other one\./);

    term.type("/session");
    term.keys("Enter");
    screen = await term.waitFor(/Messages\s+7/);
    const [file] = sessionFiles(fx.sessions);
    expect(screen).toContain(file!.split("/").at(-1)!.slice(0, 20));

    term.keys("C-d");
    screen = await term.waitFor(/\[exited 0\]/);
    expect(screen).toMatch(/awl --resume [0-9a-f]{8}/);
    expect(fx.server.requests.at(-1)!.path).toBe("/v1/chat/completions");
    const users = (await Bun.file(file!).text()).trim().split("\n").map((l) => JSON.parse(l)).filter((l) => l.message?.role === "user");
    expect(users.map((u) => u.provider)).toEqual(["anthropic", "anthropic", "openai"]);
  });

  test("/model checks its argument; a line that starts with a path is a prompt; an unknown command is not sent", async () => {
    fx.server.reply({ blocks: [{ type: "text", text: "ls is fine." }] }, { blocks: [{ type: "text", text: "From the OpenRouter-style id." }] });
    term.start([AWL], { cwd: fx.project, env: fx.env, width: 160 });
    await term.waitFor(/\/help for commands/);
    term.type("/model anthropic/");
    term.keys("Enter");
    let screen = await term.waitFor(/Still using anthropic\/claude-sonnet-5-5\./);
    expect(screen).toContain('"anthropic/" names no model: write anthropic/<model>, e.g. anthropic/claude-sonnet-5-5');
    term.type("/model nope/");
    term.keys("Enter");
    await term.waitFor(/"nope\/" names no model, and nope is not a provider: give provider\/model \(providers: anthropic, openai/);

    term.type("/usr/bin/ls is slow?");
    term.keys("Enter");
    await term.waitFor(/ls is fine\./);
    expect(fx.server.requests).toHaveLength(1);
    const [request] = fx.server.requests;
    expect(request!.body.model).toBe("claude-sonnet-5-5"); // the refused /model changed nothing
    expect(JSON.stringify(request!.body.messages.at(-1))).toContain("/usr/bin/ls is slow?");

    term.type("/frobnicate now");
    term.keys("Enter");
    await term.waitFor(/Unknown command \/frobnicate: type \/help for the list/);
    expect(fx.server.requests).toHaveLength(1);

    term.type("/model google/gemini-2.5-pro");
    term.keys("Enter");
    await term.waitFor(/google is not a provider awl knows, so the id goes to anthropic, the current provider, as it is\./);
    term.type("and now?");
    term.keys("Enter");
    await term.waitFor(/From the OpenRouter-style id\./);
    expect(fx.server.requests.at(-1)).toMatchObject({ path: "/v1/messages", body: { model: "google/gemini-2.5-pro" } });
    term.keys("C-d");
    await term.waitFor(/\[exited 0\]/);
  });

  test("advice inside the REPL names slash commands; on the command line, flags; the log keeps the fact alone", async () => {
    const strict = await e2eFixture({ knownModels: ["claude-sonnet-5-5"] });
    try {
      // No OpenAI key nor base URL in this REPL: /model openai/… cannot be used.
      term.start([AWL], { cwd: strict.project, env: { ...strict.env, OPENAI_API_KEY: "", OPENAI_BASE_URL: "" }, width: 200 });
      await term.waitFor(/\/help for commands/);
      term.type("/model openai/gpt-4o");
      term.keys("Enter");
      let screen = await term.waitFor(/Still using anthropic\/claude-sonnet-5-5\./);
      expect(screen).toContain(
        "OPENAI_API_KEY is not set: awl reads it (or OPENAI_BASE_URL, for a local server) when it starts (/quit, export it, start awl again); or choose another provider: /model anthropic/claude-sonnet-5-5",
      );
      term.type("/model claude-nope");
      term.keys("Enter");
      await term.waitFor(/Using anthropic\/claude-nope/);
      term.type("hello?");
      term.keys("Enter");
      screen = await term.waitFor(/does not serve the model "claude-nope" \(404: retired, or never an id\): choose another with \/model <id> \(\/model alone lists them\)/);
      expect(screen).not.toMatch(/--(model|provider)/);
      // The prompt the model could not take is in the log already: it goes with the next one, and is not put back in the input too.
      await term.waitFor(/No answer: this prompt stays in the conversation[^\n]*\n›\s*$/);
      term.keys("C-d");
      await term.waitFor(/\[exited 0\]/);
      const [file] = sessionFiles(strict.sessions);
      const failed = (await Bun.file(file!).text()).trim().split("\n").map((l) => JSON.parse(l)).at(-1);
      expect(failed.message.errorMessage).toBe('Anthropic does not serve the model "claude-nope" (404: retired, or never an id)');

      const print = await strict.run(["-p", "hello?", "--model", "claude-nope"]);
      expect(print.code).toBe(1);
      expect(print.stderr).toMatch(/awl: Anthropic does not serve the model "claude-nope" \(404: retired, or never an id\): the prompt is saved: awl -p --resume \S+ --model <id> sends it \(awl models lists them\)\n/);
      const noKey = await strict.run(["-p", "hello?", "--provider", "openai"], { env: { OPENAI_API_KEY: "", OPENAI_BASE_URL: "" } });
      expect(noKey).toMatchObject({ code: 1, stdout: "" });
      expect(noKey.stderr).toBe("awl: OPENAI_API_KEY is not set: export it, set OPENAI_BASE_URL for a local server, or choose another provider with --provider anthropic\n");
    } finally {
      await strict.cleanup();
    }
  });

  test("quitting before sending anything leaves no session file", async () => {
    term.start([AWL], { cwd: fx.project, env: fx.env });
    await term.waitFor(/\/help for commands/);
    term.keys("C-c");
    await term.waitFor(/Press Ctrl\+C again to quit/);
    term.keys("C-c");
    await term.waitFor(/\[exited 0\]/);
    expect(sessionFiles(fx.sessions)).toEqual([]);
  });

  test("resuming shows the conversation so far, and quitting without sending leaves the file byte-identical", async () => {
    fx.server.reply({ blocks: [{ type: "toolUse", name: "bash", input: { command: "ls" } }] }, { blocks: [{ type: "text", text: "Here are the files." }] });
    const first = await fx.run(["-p", "list the files"]);
    expect(first.code).toBe(0);
    const [file] = sessionFiles(fx.sessions);
    const before = await Bun.file(file!).bytes();

    term.start([AWL, "--resume"], { cwd: fx.project, env: fx.env });
    const screen = await term.waitFor(/\/help for commands/);
    expect(screen).toContain("list the files");
    expect(screen).toContain("bash ls");
    expect(screen).toContain("Here are the files.");
    expect(screen).toContain("anthropic/claude-sonnet-5-5");
    term.keys("C-d");
    await term.waitFor(/\[exited 0\]/);
    expect(await Bun.file(file!).bytes()).toEqual(before);
  });

  for (const [key, name] of [["C-c", "Ctrl+C"], ["Escape", "Esc"]] as const)
  test(`${name} interrupts a streaming answer; the partial answer is kept and the next prompt works`, async () => {
    fx.server.reply({ blocks: [{ type: "text", text: "word ".repeat(400) }], chunk: 5, delayMs: 20 }, { blocks: [{ type: "text", text: "after the interruption" }] });
    term.start([AWL], { cwd: fx.project, env: fx.env });
    await term.waitFor(/\/help for commands/);
    term.type("talk");
    term.keys("Enter");
    await term.waitFor(/word word word/);
    term.keys(key);
    await term.waitFor(/Interrupted/);
    term.type("continue");
    term.keys("Enter");
    await term.waitFor(/after the interruption/);
    term.keys("C-d");
    await term.waitFor(/\[exited 0\]/);
    const lines = readLog(sessionFiles(fx.sessions)[0]!);
    expect(lines[3]).toMatchObject({ type: "session_info", title: "talk" }); // the first prompt's title, right after it
    const partial = lines[4].message;
    expect(partial).toMatchObject({ role: "assistant", stopReason: "error" });
    expect(partial.content[0].text).toStartWith("word word");
    expect(fx.server.requests.every((r) => (r.status ?? 200) === 200)).toBe(true);
  });
});
