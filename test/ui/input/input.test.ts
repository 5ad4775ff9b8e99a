import { describe, expect, test } from "bun:test";
import { PassThrough } from "node:stream";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CTRL_D_NOTE, CTRL_O_NOTE, QUIT_HINT, readLine, watchInterrupt } from "../../../src/ui/input/input";
import { fakeTerminal as fakeTty } from "../fake-terminal";

describe("readLine on a terminal", () => {
  test("returns the line, appends it to the caller's history, and restores the terminal", async () => {
    const tty = fakeTty();
    const history = ["older"];
    const pending = readLine({ prompt: "> ", history, input: tty.input, output: tty.output });
    tty.type("hi there\r");
    expect(await pending).toEqual({ kind: "line", text: "hi there" });
    expect(history).toEqual(["older", "hi there"]);
    expect(tty.modes()).toEqual([true, false]);
    expect(tty.written()).toStartWith("\x1b[?2004h");
    expect(tty.written()).toEndWith("\r\n\x1b[?2004l");
  });

  test("keys after Enter in the same read are kept for the next prompt", async () => {
    const tty = fakeTty();
    const options = { prompt: "> ", history: [], input: tty.input, output: tty.output };
    const first = readLine(options);
    tty.type("one\rtwo\r\x04");
    expect(await first).toEqual({ kind: "line", text: "one" });
    expect(await readLine(options)).toEqual({ kind: "line", text: "two" });
    expect(await readLine(options)).toEqual({ kind: "quit" });
  });

  test("a failure while drawing rejects, with raw mode and bracketed paste switched back off", async () => {
    const tty = fakeTty();
    const pending = readLine({ prompt: "> ", history: [], input: tty.input, output: tty.output });
    tty.failWrites();
    tty.type("x");
    await expect(pending).rejects.toThrow("terminal went away");
    expect(tty.modes()).toEqual([true, false]);
  });

  test("the end of input is a quit", async () => {
    const tty = fakeTty();
    const pending = readLine({ prompt: "> ", history: [], input: tty.input, output: tty.output });
    (tty.input as unknown as PassThrough).end();
    expect(await pending).toEqual({ kind: "quit" });
  });
});

describe("quitting with Ctrl+C", () => {
  test("the first Ctrl+C on an empty prompt says how to quit, the second quits", async () => {
    const tty = fakeTty();
    const pending = readLine({ prompt: "> ", history: [], input: tty.input, output: tty.output });
    tty.type("\x03");
    await Bun.sleep(0);
    expect(tty.written()).toContain(QUIT_HINT);
    tty.type("\x03");
    expect(await pending).toEqual({ kind: "quit" });
  });

  test("any other key in between starts the count again; Ctrl+C that clears a line does not count", async () => {
    const tty = fakeTty();
    const pending = readLine({ prompt: "> ", history: [], input: tty.input, output: tty.output });
    tty.type("\x03x\x7f\x03");
    tty.type("abc\x03\x03");
    tty.type("ok\r");
    expect(await pending).toEqual({ kind: "line", text: "ok" });
  });

  test("a second Ctrl+C after the hint has gone (2 s) only shows it again", async () => {
    const tty = fakeTty();
    const pending = readLine({ prompt: "> ", history: [], input: tty.input, output: tty.output });
    tty.type("\x03");
    await Bun.sleep(2100);
    tty.type("\x03");
    await Bun.sleep(0);
    tty.type("still here\r");
    expect(await pending).toEqual({ kind: "line", text: "still here" });
  });

  test("Ctrl+D on an empty prompt quits at once", async () => {
    const tty = fakeTty();
    const pending = readLine({ prompt: "> ", history: [], input: tty.input, output: tty.output });
    tty.type("\x04");
    expect(await pending).toEqual({ kind: "quit" });
  });
});

describe("Tab", () => {
  test("completes a command, then a path; lists what matches when several things do", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "awl-tab-"));
    try {
      mkdirSync(join(cwd, "src"));
      writeFileSync(join(cwd, "src", "parser.ts"), "");
      writeFileSync(join(cwd, "src", "printer.ts"), "");
      const tty = fakeTty();
      const completion = { cwd, commands: ["model", "session", "help"] };
      const first = readLine({ prompt: "> ", history: [], input: tty.input, output: tty.output, completion });
      tty.type("/mo\t\r");
      expect(await first).toEqual({ kind: "line", text: "/model " });
      const second = readLine({ prompt: "> ", history: [], input: tty.input, output: tty.output, completion });
      tty.type("read sr\tp\t");
      await Bun.sleep(0);
      expect(tty.written()).toContain("parser.ts  printer.ts");
      tty.type("a\t\r");
      expect(await second).toEqual({ kind: "line", text: "read src/parser.ts " });
      // Without a word before the cursor, Tab is a tab.
      const third = readLine({ prompt: "> ", history: [], input: tty.input, output: tty.output, completion });
      tty.type("\tx\r");
      expect(await third).toEqual({ kind: "line", text: "\tx" });
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});

describe("watchInterrupt", () => {
  test("what is typed ahead is shown as it is typed, and still there, unsent, when a turn is interrupted", async () => {
    const tty = fakeTty();
    const rows: string[] = [];
    let stop = watchInterrupt(() => {}, tty.input, tty.output, { show: (row) => rows.push(row), prompt: "> " });
    tty.type("next ");
    await Bun.sleep(0);
    tty.type("one");
    await Bun.sleep(0);
    stop();
    expect(rows).toEqual(["> next ", "> next one"]); // the row stays up: the REPL clears it when the turn ends
    rows.length = 0;
    stop = watchInterrupt(() => {}, tty.input, tty.output, { show: (row) => rows.push(row), prompt: "> " });
    tty.type("\x1b[200~" + "x\n".repeat(50) + "\x1b[201~\r");
    await Bun.sleep(0);
    tty.type("\x03");
    await Bun.sleep(0);
    stop();
    // The keys typed during the first turn are still waiting: they show again, the paste as its placeholder; Ctrl+C sends nothing.
    expect(rows).toEqual(["> next one", "> next one[pasted 50 lines] ⏎", "> next one[pasted 50 lines]"]);
  });

  test("Esc or Ctrl+C: lines sent ahead and the line being typed are all back in the next prompt's box, unsent, pastes whole", async () => {
    for (const interrupt of ["\x1b", "\x03"]) {
      const tty = fakeTty();
      let interrupts = 0;
      const stop = watchInterrupt(() => interrupts++, tty.input, tty.output);
      tty.type("fix the parser\r");
      await Bun.sleep(0);
      tty.type("\x1b[200~" + "log line\n".repeat(20) + "\x1b[201~\rand the ");
      await Bun.sleep(0);
      tty.type(interrupt);
      await Bun.sleep(60); // a lone ESC counts once nothing follows it
      tty.type("tests");
      await Bun.sleep(0);
      stop();
      expect(interrupts).toBe(1);
      const line = readLine({ prompt: "> ", history: [], input: tty.input, output: tty.output });
      await Bun.sleep(0);
      expect(tty.written()).toContain("[pasted 20 lines]"); // shown as it was typed
      tty.type("\r");
      expect(await line).toEqual({ kind: "line", text: `fix the parser\n${"log line\n".repeat(20)}\nand the tests` });
    }
  });

  test("Ctrl+D on an empty line during a turn is dropped, and the row says why; in a line it deletes as usual", async () => {
    const tty = fakeTty();
    const rows: string[] = [];
    const stop = watchInterrupt(() => {}, tty.input, tty.output, { show: (row) => rows.push(row), prompt: "> " });
    tty.type("\x04");
    await Bun.sleep(0);
    expect(rows.at(-1)).toBe(CTRL_D_NOTE);
    tty.type("ab\x02\x04");
    await Bun.sleep(0);
    stop();
    expect(rows.at(-1)).toBe("> a");
    tty.type("\r");
    expect(await readLine({ prompt: "> ", history: [], input: tty.input, output: tty.output })).toEqual({ kind: "line", text: "a" });
  });

  test("Ctrl+O during a turn: the row says what it will do, and it does it at the prompt, once the turn is over", async () => {
    const tty = fakeTty();
    const rows: string[] = [];
    const stop = watchInterrupt(() => {}, tty.input, tty.output, { show: (row) => rows.push(row), prompt: "> " });
    tty.type("\x0f");
    await Bun.sleep(0);
    stop();
    expect(rows.at(-1)).toBe(CTRL_O_NOTE);
    let unfolded = 0;
    const line = readLine({ prompt: "> ", history: [], input: tty.input, output: tty.output, unfold: () => [`shown ${++unfolded}`] });
    await Bun.sleep(0);
    expect(unfolded).toBe(1);
    expect(tty.written()).toContain("shown 1\r\n");
    tty.type("go\r");
    expect(await line).toEqual({ kind: "line", text: "go" });
  });

  test("Ctrl+C calls back; other keys wait as type-ahead for the next prompt; stopping restores the terminal", async () => {
    const tty = fakeTty();
    let interrupts = 0;
    const stop = watchInterrupt(() => interrupts++, tty.input, tty.output);
    tty.type("kept\x03");
    await Bun.sleep(0);
    expect(interrupts).toBe(1);
    tty.type(" too\r");
    await Bun.sleep(0);
    stop();
    expect(tty.modes()).toEqual([true, false]);
    expect(await readLine({ prompt: "> ", history: [], input: tty.input, output: tty.output })).toEqual({ kind: "line", text: "kept too" });
  });

  test("does nothing when stdin is not a terminal", () => {
    const stop = watchInterrupt(() => {}, new PassThrough() as unknown as NodeJS.ReadStream);
    stop();
  });
});

describe("readLine when stdin is not a terminal", () => {
  test("reads one line per call, a last line without newline included, then quits at the end", async () => {
    const input = new PassThrough() as unknown as NodeJS.ReadStream;
    const options = { prompt: "> ", history: [], input };
    (input as unknown as PassThrough).end("first\r\nsecond\nthird");
    expect(await readLine(options)).toEqual({ kind: "line", text: "first" });
    expect(await readLine(options)).toEqual({ kind: "line", text: "second" });
    expect(await readLine(options)).toEqual({ kind: "line", text: "third" });
    expect(await readLine(options)).toEqual({ kind: "quit" });
  });
});
