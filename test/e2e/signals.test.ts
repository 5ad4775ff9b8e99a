// Every way awl can be stopped keeps what it has, and leaves the terminal as
// it found it (issue 11, items 5, 8, 9). Through the compiled binary: the REPL
// in tmux (terminal-probe.ts reads the modes awl left behind), `awl -p` as a
// child process. Signals come from outside, as from `kill`, a closed terminal
// or a service manager.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { closeSync, constants, openSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { AWL, e2eFixture, sessionFiles } from "./awl";
import { hasTmux, ProbedTerminal } from "./terminal-probe";
import { processesWith, sleeperRunning } from "../support/processes";

let fx: Awaited<ReturnType<typeof e2eFixture>>;
let term: ProbedTerminal;
beforeEach(async () => {
  fx = await e2eFixture();
  term = new ProbedTerminal();
});
afterEach(async () => {
  term.close();
  await fx.cleanup();
});

const SIGNALS = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGTERM: 15 } as const;
type Sig = keyof typeof SIGNALS;

const entries = (file: string) => readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.parse(l));
const lastMessage = (file: string) => entries(file).at(-1).message;



/** Polls `check`; one that throws (a session line read while awl is still writing it) counts as not yet. */
async function until(check: () => boolean, what: string, limitMs = 15_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  const holds = () => {
    try {
      return check();
    } catch {
      return false;
    }
  };
  while (!holds()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(10);
  }
}

/** A tool call whose shell prints a line, then sleeps in a process carrying `marker` in its command line. */
const slowTool = (marker: string) => ({ type: "toolUse" as const, name: "bash", input: { command: `echo started ${marker}; (exec -a sleeper-${marker} sleep 30); echo finished` } });

describe.skipIf(!hasTmux)("the REPL stopped by a signal", () => {
  for (const sig of ["SIGTERM", "SIGQUIT", "SIGHUP", "SIGINT"] as Sig[]) {
    test(`${sig} at the prompt: exit ${128 + SIGNALS[sig]}, the terminal left cooked and without bracketed paste`, async () => {
      term.start([AWL], { cwd: fx.project, env: fx.env });
      await term.waitFor(/\/help for commands/);
      const pid = await term.waitForChild();
      process.kill(pid, sig);
      const after = await term.aftermath();
      expect(after).toEqual({ exit: 128 + SIGNALS[sig], modes: ["isig", "icanon", "echo"], raw: false, bracketedPaste: false });
    });
  }

  test("Ctrl+D leaves the terminal the same way (the reference the signals are held to)", async () => {
    term.start([AWL], { cwd: fx.project, env: fx.env });
    await term.waitFor(/\/help for commands/);
    term.keys("C-d");
    expect(await term.aftermath()).toEqual({ exit: 0, modes: ["isig", "icanon", "echo"], raw: false, bracketedPaste: false });
  });

  test("SIGHUP mid-stream: the partial answer shown so far is in the session, exit 129, the terminal restored", async () => {
    fx.server.reply({ blocks: [{ type: "text", text: Array.from({ length: 300 }, (_, i) => `w${i}`).join(" ") }], chunk: 4, delayMs: 15 });
    term.start([AWL], { cwd: fx.project, env: fx.env });
    await term.waitFor(/\/help for commands/);
    term.type("talk to me");
    term.keys("Enter");
    const screen = await term.waitFor(/w40 /);
    const pid = await term.waitForChild();
    process.kill(pid, "SIGHUP");
    const after = await term.aftermath();
    expect(after).toMatchObject({ exit: 129, raw: false, bracketedPaste: false });
    const [file] = sessionFiles(fx.sessions);
    const partial = lastMessage(file!);
    expect(partial).toMatchObject({ role: "assistant", stopReason: "error" });
    // Everything the screen showed before the signal was kept (awl wraps answers between words, so rows are compared without their breaks).
    const shown = screen.slice(screen.indexOf("w0 "), screen.lastIndexOf("w40 ") + 3).replace(/\s+/g, "");
    expect(partial.content[0].text.replace(/\s+/g, "")).toStartWith(shown);
  });

  // (SIGHUP from kill leaves the terminal there: it is erased too.)
  for (const sig of Object.keys(SIGNALS) as Sig[]) {
    test(`${sig} mid-answer: the status line is erased before awl exits, so nothing of it is left under the shell's next lines`, async () => {
      fx.server.reply({ blocks: [{ type: "text", text: Array.from({ length: 400 }, (_, i) => `w${i}`).join(" ") }], chunk: 4, delayMs: 15 });
      term.start([AWL], { cwd: fx.project, env: fx.env });
      await term.waitFor(/\/help for commands/);
      term.type("talk to me");
      term.keys("Enter");
      await term.waitFor(/w40 [\s\S]*esc to interrupt/);
      process.kill(await term.waitForChild(), sig);
      await term.aftermath();
      const screen = term.screen();
      expect(screen).toContain(`[exited ${128 + SIGNALS[sig]}]`);
      expect(screen).not.toContain("esc to interrupt");
    });
  }

  test("SIGTERM while a tool runs: its process group is killed and its result says it was interrupted after it started", async () => {
    const marker = `m${Math.random().toString(36).slice(2, 10)}`;
    fx.server.reply({ blocks: [slowTool(marker), { type: "toolUse", name: "bash", input: { command: "echo second" } }] });
    term.start([AWL], { cwd: fx.project, env: fx.env });
    await term.waitFor(/\/help for commands/);
    term.type("run it");
    term.keys("Enter");
    await until(() => sleeperRunning(marker), "the tool's sleep");
    process.kill(await term.waitForChild(), "SIGTERM");
    expect(await term.aftermath()).toMatchObject({ exit: 143, raw: false, bracketedPaste: false });
    expect(processesWith(marker)).toEqual([]);
    const results = lastMessage(sessionFiles(fx.sessions)[0]!);
    expect(results.role).toBe("user");
    expect(results.content[0]).toMatchObject({ type: "toolResult", isError: true });
    expect(results.content[0].content).toStartWith("Interrupted after it started: it may have changed files.");
    expect(results.content[0].content).toContain(`started ${marker}`);
    expect(results.content[1]).toMatchObject({ type: "toolResult", content: "Interrupted: this tool call was not run.", isError: true });
  });

  test("Esc while a tool runs interrupts it like Ctrl+C: interrupted after it started, the REPL goes on", async () => {
    const marker = `m${Math.random().toString(36).slice(2, 10)}`;
    fx.server.reply({ blocks: [slowTool(marker)] }, { blocks: [{ type: "text", text: "after the escape" }] });
    term.start([AWL], { cwd: fx.project, env: fx.env });
    await term.waitFor(/\/help for commands/);
    term.type("run it");
    term.keys("Enter");
    await until(() => sleeperRunning(marker), "the tool's sleep");
    term.keys("Escape");
    await term.waitFor(/Interrupted\./);
    expect(processesWith(marker)).toEqual([]);
    const results = lastMessage(sessionFiles(fx.sessions)[0]!);
    expect(results.content[0].content).toStartWith("Interrupted after it started: it may have changed files.");
    expect(results.content[0].content).toContain(`started ${marker}`);
    term.type("go on");
    term.keys("Enter");
    await term.waitFor(/after the escape/);
    term.keys("C-d");
    expect(await term.aftermath()).toMatchObject({ exit: 0, raw: false, bracketedPaste: false });
  });
});

describe("awl -p stopped by a signal", () => {
  /** Starts `awl -p`, sends `sig` once `ready()` says so, and returns how it ended. */
  async function stopped(sig: Sig | Sig[], ready: () => boolean, args = ["-p", "go"]) {
    const child = Bun.spawn([AWL, ...args], { cwd: fx.project, env: fx.env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
    const output = Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text()]);
    await until(ready, "the moment to send the signal");
    for (const [i, s] of [sig].flat().entries()) {
      // Two signals pending at once are delivered lowest number first (SIGINT before SIGTERM): let the first one land.
      if (i > 0) await Bun.sleep(100);
      child.kill(s);
    }
    const code = await child.exited;
    const [stdout, stderr] = await output;
    return { code, signalCode: child.signalCode, stdout, stderr };
  }

  for (const sig of Object.keys(SIGNALS) as Sig[]) {
    test(`${sig} mid-stream: the partial answer is appended, printed, and awl exits ${128 + SIGNALS[sig]}`, async () => {
      fx.server.reply({ blocks: [{ type: "text", text: Array.from({ length: 300 }, (_, i) => `w${i}`).join(" ") }], chunk: 4, delayMs: 10 });
      let at = 0;
      fx.server.onRequest = () => void (at = Date.now());
      const run = await stopped(sig, () => at > 0 && Date.now() - at > 300);
      expect(run).toMatchObject({ code: 128 + SIGNALS[sig], signalCode: null });
      const partial = lastMessage(sessionFiles(fx.sessions)[0]!);
      expect(partial).toMatchObject({ role: "assistant", stopReason: "error" });
      expect(partial.content[0].text).toStartWith("w0 w1 w2");
      expect(run.stdout).toBe(`${partial.content[0].text}\n`);
      expect(run.stderr).not.toMatch(/error:|at .*:\d+/); // no stack trace
    });
  }

  test("what a stop waits for is bounded: 3 s, which a second signal does not cut short", async () => {
    // The answer is 1 MB and stdout is a pipe nobody reads: the turn is saved, then awl is stuck writing the answer out.
    const answer = "x".repeat(1 << 20);
    fx.server.reply({ blocks: [{ type: "text", text: answer }], chunk: 1 << 16 });
    const fifo = join(fx.root, "stdout.fifo");
    expect(Bun.spawnSync(["mkfifo", fifo]).exitCode).toBe(0);
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK); // there, never read
    const writer = openSync(fifo, constants.O_WRONLY);
    const child = Bun.spawn([AWL, "-p", "go"], { cwd: fx.project, env: fx.env, stdin: "ignore", stdout: writer, stderr: "pipe" });
    closeSync(writer);
    await until(() => sessionFiles(fx.sessions).length === 1 && lastMessage(sessionFiles(fx.sessions)[0]!)?.role === "assistant", "the answer in the session");
    const started = Date.now();
    child.kill("SIGTERM");
    await Bun.sleep(100);
    child.kill("SIGINT");
    const code = await child.exited;
    const ms = Date.now() - started;
    expect(code).toBe(143);
    expect(ms).toBeGreaterThanOrEqual(2900);
    expect(ms).toBeLessThan(6000);
    expect(lastMessage(sessionFiles(fx.sessions)[0]!)).toMatchObject({ role: "assistant", stopReason: "stop", content: [{ type: "text", text: answer }] });
    closeSync(reader);
  });

  test("SIGTERM then SIGINT during a tool: the second signal does not cut the first one's append short", async () => {
    const marker = `m${Math.random().toString(36).slice(2, 10)}`;
    fx.server.reply({ blocks: [slowTool(marker)] });
    const run = await stopped(["SIGTERM", "SIGINT"], () => sleeperRunning(marker));
    expect(run).toMatchObject({ code: 143, signalCode: null });
    expect(processesWith(marker)).toEqual([]);
    const results = lastMessage(sessionFiles(fx.sessions)[0]!);
    expect(results.content[0].content).toStartWith("Interrupted after it started: it may have changed files.");
    expect(results.content[0].content).toContain(`started ${marker}`);
  });
});
