// readLine in a real pseudo-terminal: tmux runs the demo script, send-keys
// types as a person would, and the GOT lines it prints say what readLine returned.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { hasTmux, Terminal } from "../../e2e/tmux";

const repo = join(import.meta.dir, "..", "..", "..");
const demo = join(import.meta.dir, "fixtures", "readline-demo.ts");

let term: Terminal;
beforeEach(() => {
  term = new Terminal();
});
afterEach(() => term.close());

/** Waits for the demo to report a submitted line (or quit); returns the screen, wrapped rows joined. */
async function got(result: object): Promise<string> {
  const wanted = `GOT:${JSON.stringify(result)}`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    const screen = tmux("capture-pane", "-p", "-J", "-S", "-200");
    if (screen.includes(wanted)) return screen;
    if (Date.now() > deadline) throw new Error(`screen never showed ${wanted}:\n${screen}`);
    await Bun.sleep(50);
  }
}
const line = (text: string) => got({ kind: "line", text });

/** Pastes text the way a terminal does: tmux wraps it in the bracketed-paste markers the demo asked for. */
function paste(text: string): void {
  const load = Bun.spawnSync(["tmux", "-L", term.socket, "load-buffer", "-"], { stdin: new TextEncoder().encode(text) });
  if (load.exitCode !== 0) throw new Error(`tmux load-buffer failed: ${load.stderr.toString()}`);
  const pasted = Bun.spawnSync(["tmux", "-L", term.socket, "paste-buffer", "-p", "-d"]);
  if (pasted.exitCode !== 0) throw new Error(`tmux paste-buffer failed: ${pasted.stderr.toString()}`);
}

function tmux(...args: string[]): string {
  const result = Bun.spawnSync(["tmux", "-L", term.socket, ...args]);
  if (result.exitCode !== 0) throw new Error(`tmux ${args[0]} failed: ${result.stderr.toString()}`);
  return result.stdout.toString().trim();
}

/** Polls until the terminal's cursor is at column x, row y (bounded, like waitFor). */
async function cursorAt(x: number, y: number): Promise<void> {
  const deadline = Date.now() + 15_000;
  let seen = "";
  while ((seen = tmux("display-message", "-p", "#{cursor_x},#{cursor_y}")) !== `${x},${y}`) {
    if (Date.now() > deadline) throw new Error(`cursor stayed at ${seen}, expected ${x},${y}:\n${term.screen()}`);
    await Bun.sleep(50);
  }
}

const start = () =>
  term.start([process.execPath, "run", demo], { cwd: repo, env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" }, width: 100, height: 30 });

if (!hasTmux) console.warn("test/ui/input/input-terminal.test.ts skipped: tmux is not installed");

describe.skipIf(!hasTmux)("readLine in a real terminal", () => {
  test("editing, Alt+Enter, paste, history with a kept draft, Ctrl+C clearing, backslash continuation, Ctrl+D quitting", async () => {
    start();
    await term.waitFor(/^>/m); // capture-pane trims the space after the prompt

    // Type, move left, insert, go to the end, then Alt+Enter for a second line.
    term.type("hello wrld");
    term.keys("Left", "Left", "Left");
    term.type("o");
    term.keys("End", "M-Enter");
    term.type("second line");
    term.keys("Enter");
    let screen = await line("hello world\nsecond line");
    expect(screen).toMatch(/^> hello world\n· second line$/m);

    // A bracketed paste keeps its newlines and does not submit; Enter does.
    paste("pasted one\npasted two");
    term.type(" end");
    term.keys("Enter");
    await line("pasted one\npasted two end");

    // Up recalls the newest entry; a draft survives a trip up and back down.
    term.keys("Up", "Enter");
    screen = await line("pasted one\npasted two end");
    term.type("my draft");
    term.keys("Up", "Up", "Up", "Down", "Down", "Down");
    term.keys("Enter");
    await line("my draft");

    // Ctrl+C with text clears it; a trailing backslash + Enter continues on a new line.
    term.type("junk");
    term.keys("C-c");
    term.type("x\\");
    term.keys("Enter");
    term.type("y");
    term.keys("Enter");
    await line("x\ny");

    term.keys("C-d");
    screen = await got({ kind: "quit" });
    await term.waitFor(/DEMO-DONE\n\[exited 0\]/);
    const results = (await term.waitFor(/\[exited 0\]/)).split("\n").filter((l) => l.startsWith("GOT:"));
    expect(results.map((l) => JSON.parse(l.slice(4)))).toEqual([
      { kind: "line", text: "hello world\nsecond line" },
      { kind: "line", text: "pasted one\npasted two end" },
      { kind: "line", text: "pasted one\npasted two end" },
      { kind: "line", text: "my draft" },
      { kind: "line", text: "x\ny" },
      { kind: "quit" },
    ]);
  }, 30_000);

  test("a line longer than the terminal wraps, and the cursor lands on the right cell, wide characters included", async () => {
    start();
    await cursorAt(2, 0);
    term.type("a".repeat(120));
    await cursorAt(22, 1); // "> " + 120 cells on a 100-column screen
    term.type("你好");
    await cursorAt(26, 1);
    term.keys("Left");
    await cursorAt(24, 1);
    term.keys("Home");
    await cursorAt(2, 0);
    term.keys("End", "M-Enter");
    await cursorAt(2, 2); // the continuation prefix is as wide as the prompt
    term.type("b");
    term.keys("Enter");
    await line(`${"a".repeat(120)}你好\nb`);
    await cursorAt(2, 5); // below the 3 rows of input and the GOT line, which wraps once
    term.keys("C-d");
    await got({ kind: "quit" });
  }, 30_000);
});
