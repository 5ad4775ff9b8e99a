// The REPL's question before a tool acts (src/ui/session/approval.ts), on a stand-in
// terminal: one key answers, keys typed before the question never do, n takes
// an optional reason, Esc and Ctrl+C interrupt, the terminal is put back and
// the question erased; what the turn writes while it is up goes above it. The
// real terminal is exercised in test/e2e/approval.test.ts.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ApprovalRequest } from "../../../src/agent/approval";
import { colorsFor } from "../../../src/ui/render/colors";
import { describeCall, questionLine, questionRows, questionScreen, terminalAsk } from "../../../src/ui/session/approval";
import { checkCall, effectOf, isValidCall, proposal } from "../../../src/tools";
import { fakeTerminal } from "../fake-terminal";
import { VirtualTerminal } from "../virtual-terminal";

const plain = colorsFor({ isTTY: false });

function fakeTty(tty = true) {
  const terminal = fakeTerminal(tty);
  const calls = { interrupt: 0, paused: 0, resumed: 0 };
  return {
    input: terminal.rawInput,
    calls,
    written: terminal.written,
    ask: (cwd = "/") =>
      terminalAsk({
        out: terminal.output,
        input: terminal.input,
        c: plain,
        cwd,
        interrupt: () => calls.interrupt++,
        pauseWatching: () => {
          calls.paused++;
          return () => calls.resumed++;
        },
      }),
    /** Resolves once the question is on screen. */
    async shown(): Promise<void> {
      for (let i = 0; i < 200 && !/Run it\?|Write it\?|Make this edit\?/.test(terminal.written()); i++) await Bun.sleep(5);
      if (!/Run it\?|Write it\?|Make this edit\?/.test(terminal.written())) throw new Error(`no question: ${JSON.stringify(terminal.written())}`);
    },
  };
}

const command = (c: string, always?: string[]): ApprovalRequest => ({ tool: "bash", effect: { kind: "exec", command: c }, ...(always ? { always } : {}) });
/** The question about a call that writes a file, as the approvals make it: its effect and the change it would make. */
async function fileCall(tool: string, input: Record<string, unknown>, cwd: string, always?: string[]): Promise<ApprovalRequest> {
  const call = checkCall(tool, JSON.stringify(input));
  const effect = effectOf(call, cwd);
  if (effect?.kind !== "write" || !isValidCall(call)) throw new Error(`${tool} does not write`);
  const proposed = await proposal(call, cwd);
  return { tool, effect, ...(proposed ? { proposed } : {}), ...(always ? { always } : {}) };
}
const never = () => new AbortController().signal;

describe("the question on a terminal", () => {
  test("y answers yes; the question is erased, raw mode put back, Ctrl+C watched for again", async () => {
    const tty = fakeTty();
    const answer = tty.ask()(command("rm -rf build"), never());
    await tty.shown();
    expect(tty.written()).toContain("● bash rm -rf build");
    expect(tty.written()).toContain("Run it? y yes · n no · Esc stop");
    tty.input.write("y");
    expect(await answer).toEqual({ kind: "yes" });
    expect(tty.written()).toEndWith("\r\x1b[1A\x1b[2K\x1b[1B\x1b[2K\x1b[1A\x1b[?2004l");
    expect(tty.input.modes).toEqual([true, false]);
    expect(tty.calls).toEqual({ interrupt: 0, paused: 1, resumed: 1 });
  });

  test("keys typed before the question is shown never answer it", async () => {
    const tty = fakeTty();
    tty.input.write("yyy a n\r"); // already waiting when the question comes
    const answer = tty.ask()(command("rm x", ["rm x"]), never());
    await tty.shown();
    let settled = false;
    void answer.then(() => (settled = true));
    await Bun.sleep(60);
    expect(settled).toBe(false);
    tty.input.write("a");
    expect(await answer).toEqual({ kind: "always" });
  });

  test("a answers always only where always is offered", async () => {
    const tty = fakeTty();
    const answer = tty.ask()(command("cat 'x"), never());
    await tty.shown();
    expect(tty.written()).not.toContain("always");
    tty.input.write("a");
    await Bun.sleep(20);
    tty.input.write("Y");
    expect(await answer).toEqual({ kind: "yes" });

    const offered = fakeTty();
    const always = offered.ask()(command("npm test && make", ["npm test", "make"]), never());
    await offered.shown();
    expect(offered.written()).toContain("a always (npm test, make, until awl exits)");
    offered.input.write("a");
    expect(await always).toEqual({ kind: "always" });
  });

  test("n asks for one line of reason, edited with Backspace, sent with Enter", async () => {
    const tty = fakeTty();
    const answer = tty.ask()(command("rm -rf src"), never());
    await tty.shown();
    tty.input.write("n");
    await Bun.sleep(10);
    expect(tty.written()).toContain("Why not? (optional, for the model; Enter to skip) › ");
    tty.input.write("keep srcc\x7f, use build/");
    await Bun.sleep(10);
    tty.input.write("\r");
    expect(await answer).toEqual({ kind: "no", reason: "keep src, use build/" });
  });

  test("n then Enter: no reason", async () => {
    const tty = fakeTty();
    const answer = tty.ask()(command("rm x"), never());
    await tty.shown();
    tty.input.write("n");
    await Bun.sleep(10);
    tty.input.write("\r");
    expect(await answer).toEqual({ kind: "no" });
  });

  for (const [name, key] of [["Esc", "\x1b"], ["Ctrl+C", "\x03"]] as const) {
    test(`${name} interrupts the turn, at the question or at the reason`, async () => {
      const tty = fakeTty();
      const answer = tty.ask()(command("rm x"), never());
      await tty.shown();
      tty.input.write(key);
      expect(await answer).toEqual({ kind: "interrupted" });
      expect(tty.calls.interrupt).toBe(1);
      expect(tty.input.modes).toEqual([true, false]);

      const again = fakeTty();
      const second = again.ask()(command("rm x"), never());
      await again.shown();
      again.input.write("n");
      await Bun.sleep(10);
      again.input.write(`why${key}`);
      expect(await second).toEqual({ kind: "interrupted" });
      expect(again.calls.interrupt).toBe(1);
    });
  }

  test("a stop signal ends the question: interrupted, terminal put back", async () => {
    const tty = fakeTty();
    const controller = new AbortController();
    const answer = tty.ask()(command("rm x"), controller.signal);
    await tty.shown();
    controller.abort();
    expect(await answer).toEqual({ kind: "interrupted" });
    expect(tty.input.modes).toEqual([true, false]);
  });
});

describe("output while the question is up", () => {
  test("rows the turn writes meanwhile (a subagent that ended) go above the question, drawn whole again under them, at the choices and at the reason; once answered, only they stay", async () => {
    const terminal = fakeTerminal();
    const screen = new VirtualTerminal(80, 24);
    let above: ((text: string) => void) | undefined;
    const ask = terminalAsk({ out: terminal.output, draw: screen, input: terminal.input, c: plain, cwd: "/", interrupt: () => {}, pauseWatching: () => () => {}, showAbove: (write) => (above = write) });
    screen.write("● task one\n");
    const answer = ask(command("rm -rf build"), never());
    const shown = (pattern: RegExp) => screen.screen().filter(Boolean).join("\n").match(pattern);
    for (let i = 0; i < 200 && !shown(/Run it\?/); i++) await Bun.sleep(5);
    above!("● task two\n  ⎿ subagent done after 1 tool call\n");
    expect(screen.screen().filter(Boolean)).toEqual(["● task one", "● task two", "  ⎿ subagent done after 1 tool call", "● bash rm -rf build", "  Run it? y yes · n no · Esc stop"]);
    expect(screen.cursor.col).toBe("  Run it? y yes · n no · Esc stop".length); // where a key's effect is drawn

    terminal.type("n");
    terminal.type("keep it");
    for (let i = 0; i < 200 && !shown(/keep it/); i++) await Bun.sleep(5);
    above!("● task three\n");
    above!("  ⎿ subagent do"); // a row not ended yet waits for its end
    expect(screen.screen().filter(Boolean)).toEqual(["● task one", "● task two", "  ⎿ subagent done after 1 tool call", "● task three", "● bash rm -rf build", "  Why not? (optional, for the model; Enter to skip) › keep it"]);
    terminal.type("\r");
    expect(await answer).toEqual({ kind: "no", reason: "keep it" });
    // The question is gone; the row that had not ended is where it was, and the output's next write continues it.
    expect(above).toBeUndefined();
    screen.write("ne\n");
    expect(screen.screen().filter(Boolean)).toEqual(["● task one", "● task two", "  ⎿ subagent done after 1 tool call", "● task three", "  ⎿ subagent done"]);
    expect(screen.problems).toEqual([]);
  });

  test("a question of several rows that became the reason's one row: output written above it then leaves every row above in place", async () => {
    const terminal = fakeTerminal();
    const screen = new VirtualTerminal(80, 24);
    let above: ((text: string) => void) | undefined;
    const ask = terminalAsk({ out: terminal.output, draw: screen, input: terminal.input, c: plain, cwd: "/", interrupt: () => {}, pauseWatching: () => () => {}, showAbove: (write) => (above = write) });
    screen.write("› use three helpers\n● task one\n● task two\n");
    const long = "touch build/reports/a-rather-long-file-name-for-the-question.txt";
    const answer = ask(command(long, [long]), never());
    const shown = (pattern: RegExp) => screen.screen().filter(Boolean).join("\n").match(pattern);
    for (let i = 0; i < 200 && !shown(/Esc stop/); i++) await Bun.sleep(5);
    expect(screen.screen().filter(Boolean).length).toBeGreaterThan(5); // the choices take more than one row
    terminal.type("n");
    for (let i = 0; i < 200 && !shown(/Why not/); i++) await Bun.sleep(5);
    above!("  ⎿ subagent done after 3 tool calls\n");
    const rows = screen.screen().filter(Boolean);
    expect(rows.slice(0, 4)).toEqual(["› use three helpers", "● task one", "● task two", "  ⎿ subagent done after 3 tool calls"]);
    expect(rows.at(-1)).toStartWith("  Why not?");
    terminal.type("\r");
    expect(await answer).toEqual({ kind: "no" });
    expect(screen.screen().filter(Boolean)).toEqual(["› use three helpers", "● task one", "● task two", "  ⎿ subagent done after 3 tool calls"]);
    expect(screen.problems).toEqual([]);
  });
});

describe("the question without a terminal", () => {
  test("a line answers it: y, a or n, and after n a line of reason; anything else asks again", async () => {
    const tty = fakeTty(false);
    const answer = tty.ask()(command("rm x"), never());
    tty.input.write("maybe\nno\nnot that one\n");
    expect(await answer).toEqual({ kind: "no", reason: "not that one" });
    expect(tty.written()).toContain("Answer y or n.");
    const yes = tty.ask()(command("rm y"), never());
    tty.input.write("y\n");
    expect(await yes).toEqual({ kind: "yes" });
  });

  test("the end of the input interrupts the turn", async () => {
    const tty = fakeTty(false);
    const answer = tty.ask()(command("rm x"), never());
    tty.input.end();
    expect(await answer).toEqual({ kind: "interrupted" });
    expect(tty.calls.interrupt).toBe(1);
  });
});

describe("what the question shows", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "awl-ask-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test("an edit: the diff it would make, from the file as it is; the file is not touched", async () => {
    writeFileSync(join(dir, "a.ts"), "one\ntwo\nthree\n");
    const rows = describeCall(await fileCall("edit", { path: "a.ts", oldText: "two", newText: "TWO" }, dir, ["edit"]), plain, 80, dir);
    expect(rows).toEqual(["● edit a.ts", "    @@ -1,3 +1,3 @@", "     one", "    -two", "    +TWO", "     three"]);
    expect(await Bun.file(join(dir, "a.ts")).text()).toBe("one\ntwo\nthree\n");
  });

  test("an edit whose text is not in the file: the text and its replacement, said so", async () => {
    writeFileSync(join(dir, "a.ts"), "one\n");
    const rows = describeCall(await fileCall("edit", { path: "a.ts", oldText: "gone", newText: "new" }, dir), plain, 80, dir);
    expect(rows.slice(0, 2)).toEqual(["● edit a.ts", "    (the text to replace and its replacement; line numbers are the text's own)"]);
    expect(rows).toContain("    -gone");
    expect(rows).toContain("    +new");
  });

  test("a write: a new file's lines, or the diff against the file it replaces", async () => {
    expect(describeCall(await fileCall("write", { path: "new.txt", content: "a\nb\n" }, dir), plain, 80, dir)).toEqual(["● write new.txt", "    +a", "    +b"]);
    writeFileSync(join(dir, "old.txt"), "a\nb\n");
    expect(describeCall(await fileCall("write", { path: "old.txt", content: "a\nc\n" }, dir), plain, 80, dir)).toEqual(["● write old.txt", "    @@ -1,2 +1,2 @@", "     a", "    -b", "    +c"]);
  });

  test("an API key in the file is not shown", async () => {
    writeFileSync(join(dir, ".env"), "KEY=sk-ant-secret-value-123\n");
    const rows = describeCall(await fileCall("write", { path: ".env", content: "KEY=\n" }, dir), plain, 80, dir, 20, { ANTHROPIC_API_KEY: "sk-ant-secret-value-123" });
    expect(rows.join("\n")).not.toContain("sk-ant-secret-value-123");
    expect(rows.join("\n")).toContain("[redacted ANTHROPIC_API_KEY]");
  });

  test("a long or multi-line command in full, control characters made safe", () => {
    const rows = describeCall(command("cd build &&\nrm -rf *\x1b[2J"), plain, 80, dir);
    expect(rows).toEqual(["● bash", "    cd build &&", "    rm -rf *␛[2J"]);
    expect(questionLine({ tool: "edit", effect: { kind: "write", path: join(dir, "a.ts") }, always: ["edit"] }, plain)).toBe("  Make this edit? y yes · a always (edit, until awl exits) · n no · Esc stop");
  });

  test("at 40 columns every row of an edit's diff, the path and the choices fits, and nothing is cut: every word is there", async () => {
    const long = "  return a - b; // subtract two numbers and give back what is left over";
    writeFileSync(join(dir, "arithmetic-operations-lib.ts"), `export function sub(a, b) {\n  return a + b;\n}\n`);
    const request = await fileCall("edit", { path: "arithmetic-operations-lib.ts", oldText: "  return a + b;", newText: long }, dir, ["edit"]);
    const rows = [...describeCall(request, plain, 39, dir), ...questionRows(request, plain, 39)];
    for (const row of rows) expect(Bun.stringWidth(row)).toBeLessThanOrEqual(39);
    const shown = rows.join(" ");
    expect(shown).not.toContain("…");
    for (const word of `${long} arithmetic-operations-lib.ts Make this edit? y yes a always (edit, until awl exits) n no Esc stop`.split(/\s+/)) expect(shown).toContain(word);
    // The added line's later rows hang under its text, not under a mark of their own.
    const added = rows.findIndex((r) => r.startsWith("    +  return a - b;"));
    expect(rows[added + 1]).toMatch(/^ {4} {3}\S/);
    // Each choice whole on a row where it fits.
    expect(questionRows(request, plain, 39)).toEqual(["  Make this edit? y yes", "  a always (edit, until awl exits)", "  n no · Esc stop"]);
  });

  test("a command longer than the row wraps between words under its header", () => {
    const rows = describeCall(command("git commit -m 'a message that is much longer than the screen is wide'"), plain, 30, dir);
    expect(rows).toEqual(["● bash git commit -m 'a", "    message that is much", "    longer than the screen is", "    wide'"]);
  });

  test("a call taller than the screen: a window of its rows under its header, where it is, then the choices", () => {
    const call = ["● write x", ...Array.from({ length: 50 }, (_, i) => `    +line ${i + 1}`)];
    const question = ["  Write it? y yes · n no · Esc stop"];
    const first = questionScreen(call, question, 24, 0, plain);
    expect(first.rows.length).toBe(24 - 3);
    expect(first.rows[0]).toBe("● write x");
    expect(first.rows[1]).toBe("    +line 1");
    expect(first.rows.at(-2)).toBe(`    rows 1-${first.room} of 50 · ↑ ↓ PgUp PgDn to scroll`);
    expect(first.rows.at(-1)).toBe(question[0]);
    const last = questionScreen(call, question, 24, 1000, plain);
    expect(last.rows.at(-3)).toBe("    +line 50");
    expect(last.top).toBe(50 - last.room);
    expect(questionScreen(call.slice(0, 5), question, 24, 7, plain).rows).toEqual([...call.slice(0, 5), ...question]);
    // On a narrow screen the line saying where the window is wraps too, and the window is a row shorter for it.
    const narrow = questionScreen(call, question, 24, 0, plain, 30);
    expect(narrow.rows.length).toBe(24 - 3);
    expect(narrow.rows.slice(-3, -1)).toEqual([`    rows 1-${narrow.room} of 50 · ↑ ↓ PgUp`, "    PgDn to scroll"]);
  });
});

describe("scrolling a tall question", () => {
  test("↓ and PgDn move the window, End shows the last rows, and y still answers", async () => {
    const dir = mkdtempSync(join(tmpdir(), "awl-ask-"));
    try {
      const tty = fakeTty();
      const content = Array.from({ length: 60 }, (_, i) => `line ${i + 1}`).join("\n");
      const answer = tty.ask(dir)(await fileCall("write", { path: "new.txt", content }, dir), never());
      await tty.shown();
      expect(tty.written()).toContain("rows 1-");
      expect(tty.written()).not.toContain("+line 60");
      tty.input.write("\x1b[F"); // End
      await Bun.sleep(20);
      expect(tty.written()).toContain("+line 60");
      expect(tty.written()).toMatch(/rows \d+-60 of 60/);
      tty.input.write("y");
      expect(await answer).toEqual({ kind: "yes" });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
