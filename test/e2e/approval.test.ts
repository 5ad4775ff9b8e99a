// Approval modes through the compiled binary: the REPL's question in a real
// terminal (tmux) in its default mode, ask (a yes, an always, a no with a
// reason the next request carries, Ctrl+C and Esc at the question, keys typed
// before it), /approve and /session; and -p under auto, read-only and ask.
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { AWL, useE2eFixture, sessionFiles } from "./awl";
import { ProbedTerminal } from "./terminal-probe";
import { hasTmux, useTerminal } from "./tmux";
import { readLog } from "../support/session-log";

const fx = useE2eFixture();
const term = useTerminal();

const bash = (command: string) => ({ type: "toolUse" as const, name: "bash", input: { command } });
const text = (t: string) => ({ blocks: [{ type: "text" as const, text: t }] });
/** The fixture's environment without AWL_APPROVE: the REPL's own default. */
const defaultEnv = () => Object.fromEntries(Object.entries(fx.env).filter(([k]) => k !== "AWL_APPROVE"));

async function startRepl(width = 180, height = 40): Promise<string> {
  term.start([AWL], { cwd: fx.project, env: defaultEnv(), width, height });
  return term.waitFor(/\/help for commands/);
}

function send(prompt: string): void {
  term.type(prompt);
  term.keys("Enter");
}

/** Every line of the session file but partials, parsed. */
function log(): any[] {
  return readLog(sessionFiles(fx.sessions)[0]!);
}

/** The tool results of the session's last user message. */
async function lastResults(): Promise<any[]> {
  const users = (await log()).filter((l) => l.message?.role === "user");
  return users.at(-1).message.content.filter((b: { type: string }) => b.type === "toolResult");
}

describe.skipIf(!hasTmux)("the question in a real terminal (--approve ask, the REPL's default)", () => {
  test("the banner says ask; y runs the command, the question is erased, only the result is logged", async () => {
    fx.server.reply({ blocks: [bash("echo made > made.txt")] }, text("Made it."));
    const banner = await startRepl();
    expect(banner).toContain("approve: ask");
    send("make a file");
    const screen = await term.waitFor(/Run it\?/);
    expect(screen).toContain("● bash echo made > made.txt");
    expect(screen).toMatch(/Run it\? y yes · a always \(only this exact command, until awl exits\) · s always, and save \(Bash\(echo made > made\.txt\) in your settings\) · n no · Esc stop/);
    await Bun.sleep(300);
    expect(existsSync(join(fx.project, "made.txt"))).toBe(false);
    term.type("y");
    const after = await term.waitFor(/Made it\./);
    expect(after).not.toContain("Run it?");
    expect(after).toContain("● bash echo made > made.txt");
    expect(await Bun.file(join(fx.project, "made.txt")).text()).toBe("made\n");
    expect((await lastResults())[0]).toMatchObject({ type: "toolResult", content: "(no output)\nexit code: 0" });
    // The question and its answer are not in the log: only the messages, the title and what the command changed.
    expect(new Set((await log()).map((l) => l.type))).toEqual(new Set(["session", "message", "session_info", "bash_effects"]));
    term.keys("C-d");
    await term.waitFor(/\[exited 0\]/);
  });

  test("a at rm -rf d1: the same command runs unasked, rm -rf d2 keep is asked; /session shows what is allowed", async () => {
    for (const d of ["d1", "d2", "keep"]) await Bun.write(join(fx.project, d, "f"), "x");
    fx.server.reply({ blocks: [bash("rm -rf d1")] }, { blocks: [bash("rm -rf d1")] }, { blocks: [bash("rm -rf d2 keep")] }, text("Stopped."));
    await startRepl();
    send("clean up");
    const screen = await term.waitFor(/Run it\?/);
    expect(screen).toContain("a always (only this exact command, until awl exits)");
    term.type("a");
    const again = await term.waitFor(/rm -rf d2 keep[\s\S]*Run it\?/);
    expect(again).toContain("a always (only this exact command, until awl exits)");
    expect(existsSync(join(fx.project, "d1"))).toBe(false);
    expect(fx.server.requests).toHaveLength(3); // the second rm -rf d1 ran without a question
    term.type("n");
    await term.waitFor(/Why not\?/);
    term.keys("Enter");
    await term.waitFor(/Stopped\./);
    expect(existsSync(join(fx.project, "keep"))).toBe(true);
    send("/session");
    await term.waitFor(/Approve\s+ask .* always allowed until awl exits: rm -rf d1/);
    send("/approve");
    await term.waitFor(/Approve\s+ask \(calls that change files or run commands ask first[\s\S]*›\s*$/);
    term.keys("C-d");
    await term.waitFor(/\[exited 0\]/);
  });

  test("n with a reason: the refusal is the call's error result, and the next request carries it", async () => {
    fx.server.reply({ blocks: [bash("rm -rf src")] }, text("Understood, keeping src."));
    await startRepl();
    send("clean up");
    await term.waitFor(/Run it\?/);
    term.type("n");
    await term.waitFor(/Why not\?/);
    term.type("src is mine, remove build/ instead");
    term.keys("Enter");
    const screen = await term.waitFor(/Understood, keeping src\./);
    expect(screen).toContain("⎿ Not run: the user declined this tool call. Their reason: src is mine, remove build/ instead");
    expect(screen).not.toContain("Why not?");
    expect(await lastResults()).toEqual([
      { type: "toolResult", toolUseId: expect.any(String), content: "Not run: the user declined this tool call. Their reason: src is mine, remove build/ instead", isError: true },
    ]);
    // The strict test server took the request that carried it as the tool's result.
    const second = fx.server.requests[1]!;
    expect(second.status ?? 200).toBe(200);
    expect(second.body.messages.at(-1).content[0]).toMatchObject({ type: "tool_result", is_error: true, content: expect.stringContaining("src is mine") });
    term.keys("C-d");
    await term.waitFor(/\[exited 0\]/);
  });

  for (const [name, key] of [["Ctrl+C", "C-c"], ["Esc", "Escape"]] as const) {
    test(`${name} at the question interrupts the turn: the call is not run, and the REPL goes on`, async () => {
      fx.server.reply({ blocks: [bash("touch x"), bash("touch y")] }, text("Fine, I stopped."));
      await startRepl();
      send("touch things");
      await term.waitFor(/Run it\?/);
      term.keys(key);
      const screen = await term.waitFor(/Interrupted\./);
      expect(screen).not.toContain("Run it?");
      expect(existsSync(join(fx.project, "x"))).toBe(false);
      expect(existsSync(join(fx.project, "y"))).toBe(false);
      expect((await lastResults()).map((r) => r.content)).toEqual(["Interrupted: this tool call was not run.", "Interrupted: this tool call was not run."]);
      send("ok, stop");
      await term.waitFor(/Fine, I stopped\./);
      expect(fx.server.requests.map((r) => r.status ?? 200)).toEqual([200, 200]);
      term.keys("C-d");
      await term.waitFor(/\[exited 0\]/);
    });
  }

  test("keys typed before the question is shown never answer it", async () => {
    // The tool call comes slowly: the person types while waiting for it.
    fx.server.reply({ blocks: [{ type: "text", text: "Let me run it." }, bash("touch early")], delayMs: 40, chunk: 1 }, text("Ran it."));
    await startRepl();
    send("run it");
    await term.waitFor(/Let me/);
    term.type("yaYn");
    term.keys("Enter");
    await term.waitFor(/Run it\?/);
    await Bun.sleep(500);
    expect(existsSync(join(fx.project, "early"))).toBe(false);
    expect(term.screen()).toContain("Run it?");
    expect(term.screen()).not.toContain("Why not?");
    term.type("y");
    await term.waitFor(/Ran it\./);
    expect(existsSync(join(fx.project, "early"))).toBe(true);
    term.keys("C-d");
  });

  test("SIGTERM at the question: the call is recorded as not run, exit 143, the terminal put back", async () => {
    fx.server.reply({ blocks: [bash("touch x")] });
    const probed = new ProbedTerminal();
    try {
      probed.start([AWL], { cwd: fx.project, env: defaultEnv() });
      await probed.waitFor(/\/help for commands/);
      probed.tmux("send-keys", "-l", "touch it");
      probed.tmux("send-keys", "Enter");
      await probed.waitFor(/Run it\?/);
      process.kill(await probed.waitForChild(), "SIGTERM");
      expect(await probed.aftermath()).toEqual({ exit: 143, modes: ["isig", "icanon", "echo"], raw: false, bracketedPaste: false });
      expect(existsSync(join(fx.project, "x"))).toBe(false);
      expect((await lastResults()).map((r) => r.content)).toEqual(["Interrupted: this tool call was not run."]);
    } finally {
      probed.close();
    }
  });

  test("read-only commands run without asking; /approve read-only refuses the rest with an error the model reads", async () => {
    await Bun.write(join(fx.project, "a.txt"), "alpha\n");
    fx.server.reply({ blocks: [bash("ls && cat a.txt | wc -l")] }, text("Looked."), { blocks: [bash("rm a.txt")] }, text("Could not."));
    await startRepl();
    send("look");
    let screen = await term.waitFor(/Looked\./);
    expect(screen).not.toContain("Run it?");
    send("/approve read-only");
    await term.waitFor(/Approval mode read-only from now on/);
    send("remove it");
    screen = await term.waitFor(/Could not\./);
    expect(screen).toContain("⎿ Not run: awl is in read-only mode");
    expect(existsSync(join(fx.project, "a.txt"))).toBe(true);
    send("/session");
    await term.waitFor(/Approve\s+read-only[\s\S]*›\s*$/);
    term.keys("C-d");
    await term.waitFor(/\[exited 0\]/);
  });

  test("an edit shows the diff it would make before it is made", async () => {
    await Bun.write(join(fx.project, "app.ts"), "const a = 1;\nconst b = 2;\n");
    fx.server.reply({ blocks: [{ type: "toolUse", name: "edit", input: { path: "app.ts", oldText: "const b = 2;", newText: "const b = 3;" } }] }, text("Edited."));
    await startRepl();
    send("bump b");
    const screen = await term.waitFor(/Make this edit\?/);
    expect(screen).toContain("● edit app.ts");
    expect(screen).toMatch(/-const b = 2;/);
    expect(screen).toMatch(/\+const b = 3;/);
    expect(screen).toContain("a always (edit, until awl exits)");
    expect(await Bun.file(join(fx.project, "app.ts")).text()).toBe("const a = 1;\nconst b = 2;\n");
    term.type("y");
    await term.waitFor(/Edited\./);
    expect(await Bun.file(join(fx.project, "app.ts")).text()).toBe("const a = 1;\nconst b = 3;\n");
    term.keys("C-d");
  });
});

describe.skipIf(!hasTmux)("the question on a narrow or short screen", () => {
  test("at 40 columns every row of an edit's diff and every choice can be read: wrapped between words, nothing cut", async () => {
    const added = "  return a - b; // subtract two numbers and give back the difference";
    await Bun.write(join(fx.project, "math.ts"), "export function sub(a: number, b: number) {\n  return a + b;\n}\n");
    fx.server.reply({ blocks: [{ type: "toolUse", name: "edit", input: { path: "math.ts", oldText: "  return a + b;", newText: added } }] }, text("Fixed."));
    await startRepl(40, 30);
    send("fix sub");
    const screen = await term.waitFor(/Esc stop/);
    expect(screen).not.toContain("…");
    for (const row of screen.split("\n")) expect(Bun.stringWidth(row)).toBeLessThanOrEqual(40);
    // The added line, word for word, over the rows it wraps onto.
    const shown = screen.slice(screen.indexOf("+  return a - b;")).replace(/\s+/g, " ");
    expect(shown).toContain(added.trim().replace(/\s+/g, " "));
    expect(screen).toContain("-  return a + b;");
    expect(screen).toMatch(/Make this edit\? y yes/);
    expect(screen).toMatch(/a always \(edit[^)]*\)/);
    expect(screen).toMatch(/n no · Esc stop/);
    term.type("y");
    await term.waitFor(/Fixed\./);
    expect(await Bun.file(join(fx.project, "math.ts")).text()).toContain(added);
    term.keys("C-d");
  });

  test("a resize at the question draws it again at the new width: every choice readable, the old rows gone", async () => {
    await Bun.write(join(fx.project, "notes.md"), "one\n");
    fx.server.reply({ blocks: [{ type: "toolUse", name: "write", input: { path: "notes.md", content: "one\ntwo words that make a line longer than forty columns\n" } }] }, text("Noted."));
    await startRepl(120, 30);
    send("note it");
    await term.waitFor(/Write it\? y yes · a always \(write[^)]*\) · s always, and save \(Write in your settings\) · n no · Esc stop/);
    term.resize(40, 30);
    const screen = await term.waitFor(/^ {2}n no · Esc stop$/m);
    const visible = screen.split("\n").slice(-30);
    for (const row of visible) expect(Bun.stringWidth(row)).toBeLessThanOrEqual(40);
    expect(visible.filter((row) => row.includes("Esc stop"))).toHaveLength(1);
    expect(visible.join("\n")).toMatch(/\+two words that make a line longer\n +than forty columns/);
    term.type("y");
    await term.waitFor(/Noted\./);
    term.keys("C-d");
  });

  test("a diff taller than the screen: a window with its size shown, the choices on screen; End shows its last rows", async () => {
    const content = Array.from({ length: 80 }, (_, i) => `line number ${i + 1}`).join("\n");
    fx.server.reply({ blocks: [{ type: "toolUse", name: "write", input: { path: "long.txt", content } }] }, text("Written."));
    await startRepl(80, 20);
    send("write it");
    const first = await term.waitFor(/Esc stop/);
    expect(first).toMatch(/rows 1-\d+ of 80 · ↑ ↓ PgUp PgDn to scroll/);
    expect(first).toContain("+line number 1\n");
    expect(first).not.toContain("+line number 80");
    term.keys("End");
    const last = await term.waitFor(/\+line number 80/);
    expect(last).toMatch(/rows \d+-80 of 80/);
    expect(last).toMatch(/Write it\? y yes/);
    term.type("y");
    await term.waitFor(/Written\./);
    term.keys("C-d");
  });
});

describe("-p and the approval modes", () => {
  test("auto is -p's default: every tool runs", async () => {
    fx.server.reply({ blocks: [bash("echo made > made.txt && rm -f nothing")] }, text("done"));
    const run = await fx.run(["-p", "make it"], { env: { AWL_APPROVE: undefined } });
    expect(run).toMatchObject({ code: 0, stdout: "done\n" });
    expect(await Bun.file(join(fx.project, "made.txt")).text()).toBe("made\n");
  });

  test("read-only: write, edit and changing commands are refused with an error the model reads; read-only ones run", async () => {
    await Bun.write(join(fx.project, "a.txt"), "alpha\n");
    fx.server.reply(
      { blocks: [bash("cat a.txt"), bash("rm a.txt"), { type: "toolUse", name: "write", input: { path: "b.txt", content: "b" } }] },
      text("I could only read."),
    );
    const run = await fx.run(["-p", "tidy up", "--approve", "read-only"]);
    expect(run).toMatchObject({ code: 0, stdout: "I could only read.\n" });
    expect(run.stderr).toContain("● bash rm a.txt");
    expect(run.stderr).toContain("⎿ Not run: awl is in read-only mode");
    expect(existsSync(join(fx.project, "a.txt"))).toBe(true);
    expect(existsSync(join(fx.project, "b.txt"))).toBe(false);
    const results = fx.server.requests[1]!.body.messages.at(-1).content;
    expect(results.map((r: { is_error?: boolean }) => r.is_error ?? false)).toEqual([false, true, true]);
    expect(fx.server.requests[1]!.status ?? 200).toBe(200);
  });

  test("AWL_APPROVE=read-only does the same", async () => {
    fx.server.reply({ blocks: [bash("touch x")] }, text("no"));
    const run = await fx.run(["-p", "touch"], { env: { AWL_APPROVE: "read-only" } });
    expect(run.code).toBe(0);
    expect(existsSync(join(fx.project, "x"))).toBe(false);
  });

  test("-p --approve ask is a usage error, exit 2, before anything is sent or written; so is AWL_APPROVE=ask", async () => {
    for (const run of [await fx.run(["-p", "hi", "--approve", "ask"]), await fx.run(["-p", "hi"], { env: { AWL_APPROVE: "ask" } })]) {
      expect(run.code).toBe(2);
      expect(run.stdout).toBe("");
      expect(run.stderr.trim().split("\n")).toHaveLength(1);
      expect(run.stderr).toContain("cannot be used with -p");
    }
    const bad = await fx.run(["--approve", "sometimes"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("unknown approval mode 'sometimes'");
    expect(fx.server.requests).toHaveLength(0);
    expect(sessionFiles(fx.sessions)).toEqual([]);
  });
});
