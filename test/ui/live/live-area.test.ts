// The rows under the output while a turn runs (src/ui/live/live-area.ts): the bytes
// it puts around the renderer's writes while rows are up, none while they are
// not (nor at all when the output is not a terminal), and, in a terminal that
// keeps its scrollback (./virtual-terminal.ts), that none of them ever reaches
// it: after the turn the output is there once, exactly as written.
import { describe, expect, test } from "bun:test";
import { mute } from "../../../src/ui/input/input-modes";
import { LiveArea } from "../../../src/ui/live/live-area";
import { VirtualTerminal } from "../virtual-terminal";

function terminal(isTTY = true, columns = 80, rows = 24) {
  let written = "";
  const out = {
    isTTY,
    columns,
    rows,
    write(chunk: string) {
      written += chunk;
      return true;
    },
  };
  return { out: out as unknown as NodeJS.WriteStream, written: () => written, clear: () => (written = "") };
}

/** A LiveArea on a virtual terminal. */
function onScreen(width: number, height: number) {
  const vt = new VirtualTerminal(width, height);
  const out = { isTTY: true, columns: width, rows: height, write: (s: string) => (vt.write(s), true) } as unknown as NodeJS.WriteStream;
  return { vt, live: new LiveArea(out) };
}

/** Rows below the cursor's row (the output's last row still growing). */
const ERASE = "\x1b7\x1bD\r\x1b[J\x1b8";
const DRAW = (...rows: string[]) => `${"\x1bD".repeat(rows.length)}${"\x1bM".repeat(rows.length)}\x1b7\x1b[?7l${rows.map((row) => `\x1bD\r\x1b[0m${row}\x1b[0m`).join("")}\x1b[?7h\x1b8`;
/** Rows from the cursor's row on (the output ended a line: the cursor is at the start of an empty row). */
const ERASE_HERE = "\x1b7\r\x1b[J\x1b8";
const DRAW_HERE = (...rows: string[]) =>
  `${"\x1bD".repeat(rows.length - 1)}${"\x1bM".repeat(rows.length - 1)}\x1b7\x1b[?7l${rows.map((row, i) => `${i ? "\x1bD" : ""}\r\x1b[0m${row}\x1b[0m`).join("")}\x1b[?7h\x1b8`;

describe("the rows under the output", () => {
  test("while no row is up, writes pass through untouched", () => {
    const t = terminal();
    const live = new LiveArea(t.out);
    live.stream.write("streamed text\n");
    expect(t.written()).toBe("streamed text\n");
    expect(live.stream.columns).toBe(80); // everything else is the terminal's own
  });

  test("the typed-ahead row is shown under the output without moving the cursor; a write that could reach it erases it first and draws it again after", () => {
    const t = terminal();
    const live = new LiveArea(t.out);
    // Made as a line was entered: the cursor is at the start of an empty row, and the row is drawn there.
    live.typeAhead("› next");
    expect(t.written()).toBe(ERASE_HERE + DRAW_HERE("› next")); // (whatever was left there goes first)
    t.clear();
    live.stream.write("more words");
    // Now the cursor's row holds output: the row goes below it.
    expect(t.written()).toBe(`${ERASE_HERE}more words${DRAW("› next")}`);
    t.clear();
    live.stream.write(" and more");
    expect(t.written()).toBe(" and more"); // on the cursor's row: cannot reach it
    t.clear();
    live.typeAhead("› next one");
    expect(t.written()).toBe(ERASE + DRAW("› next one"));
    t.clear();
    live.typeAhead("› next one");
    expect(t.written()).toBe("");
    live.stream.write(".\n\x1b[0m");
    expect(t.written()).toBe(`${ERASE}.\n\x1b[0m${DRAW_HERE("› next one")}`);
    t.clear();
    live.typeAhead("");
    expect(t.written()).toBe(ERASE_HERE);
    t.clear();
    live.stream.write("x\n");
    expect(t.written()).toBe("x\n");
  });

  test("a write that stays on the cursor's row cannot reach rows below it, and passes straight through; a cursor move or an erase does not", () => {
    const t = terminal();
    const live = new LiveArea(t.out);
    live.stream.write("an answer growing");
    live.setRows(["status"]);
    t.clear();
    for (const chunk of [" a word ", "\x1b[1mbold\x1b[22m", "\r\x1b[K", "more"]) live.stream.write(chunk);
    expect(t.written()).toBe(" a word \x1b[1mbold\x1b[22m\r\x1b[Kmore");
    for (const chunk of ["\x1b[3B", "\x1bD"]) {
      t.clear();
      live.stream.write(chunk);
      expect(t.written()).toBe(ERASE + chunk + DRAW("status"));
    }
    // An erase from a row's start leaves the cursor at the start of an empty row: the rows start there.
    t.clear();
    live.stream.write("\r\x1b[2A\x1b[J");
    expect(t.written()).toBe(`${ERASE}\r\x1b[2A\x1b[J${DRAW_HERE("status")}`);
    t.clear();
    live.stream.write("text");
    expect(t.written()).toBe(`${ERASE_HERE}text${DRAW("status")}`);
  });

  test("once the terminal is made narrower, text alone may reach the rows (it was wrapped for the old width): it takes the full path", () => {
    const t = terminal(true, 70);
    const live = new LiveArea(t.out);
    live.stream.write("Paragraph");
    live.setRows(["status"]);
    t.clear();
    live.stream.write(" p7q has");
    expect(t.written()).toBe(" p7q has");
    (t.out as { columns: number }).columns = 40;
    t.clear();
    live.stream.write(" words, enough of them");
    expect(t.written()).toBe(`${ERASE} words, enough of them${DRAW("status")}`);
  });

  test("the status rows come first, the typed-ahead row last; rows are cut to one column less than the width", () => {
    const t = terminal(true, 20);
    const live = new LiveArea(t.out);
    live.setRows(["● write a.ts 1kB", `⠋ ${"long ".repeat(10)}`]);
    live.typeAhead("› typed");
    t.clear();
    live.refresh();
    expect(t.written()).toBe(ERASE_HERE + DRAW_HERE("● write a.ts 1kB", "⠋ long long long l…", "› typed"));
    expect(live.height).toBe(3);
    t.clear();
    live.setRows(["● write a.ts 1kB", `⠋ ${"long ".repeat(10)}`]);
    expect(t.written()).toBe(""); // the same rows: nothing to draw
    live.close();
    expect(t.written()).toBe(ERASE_HERE);
    expect(live.height).toBe(1); // the typed-ahead row's place is always kept
  });

  test("nothing is drawn when the output is not a terminal, and writes pass through", () => {
    const t = terminal(false);
    const live = new LiveArea(t.out);
    live.setRows(["⠋ Waiting…"]);
    live.typeAhead("› next");
    live.stream.write("answer\n");
    live.close();
    expect(t.written()).toBe("answer\n");
    expect(live.drawing).toBe(false);
  });

  test("after a stop signal the terminal is muted: nothing more is drawn (cli/stop.ts)", () => {
    const t = terminal();
    const live = new LiveArea(t.out);
    live.setRows(["⠋ Running bash"]);
    t.clear();
    mute(t.out);
    live.setRows(["⠙ Running bash"]);
    live.stream.write("late output\n");
    live.close();
    expect(t.written()).toBe("");
  });

  test("at the bottom of a small screen: the output scrolls on, the rows never reach the scrollback, the output is left there once", () => {
    const { vt, live } = onScreen(30, 6);
    live.setRows(["● bash make", "⠋ Running bash"]);
    live.typeAhead("› next");
    const lines = Array.from({ length: 20 }, (_, i) => `line ${i}`);
    for (const [i, line] of lines.entries()) {
      live.stream.write(`${line.slice(0, 3)}`);
      live.stream.write(`${line.slice(3)}\n`);
      live.setRows(["● bash make", `${"⠋⠙⠹"[i % 3]} Running bash`]);
    }
    // On screen: the last output lines, then the rows, from the cursor's row (the output ended a line).
    // (A virtual terminal keeps the resets it was sent where it was sent them: the text is what counts.)
    expect(vt.screen().map((row) => Bun.stripANSI(row))).toEqual(["line 17", "line 18", "line 19", "● bash make", "⠙ Running bash", "› next"]);
    live.close();
    expect(vt.problems).toEqual([]);
    // The scrollback and the screen hold the output once, and nothing of the rows.
    expect(Bun.stripANSI(vt.text()).replace(/\n+$/, "")).toBe(lines.join("\n"));
  });

  test("the rows take at most the screen's height less three: the top ones go first", () => {
    const { vt, live } = onScreen(30, 6);
    live.setRows(["tail 1", "tail 2", "tail 3", "tail 4", "status"]);
    live.typeAhead("› next");
    expect(vt.screen().map((row) => Bun.stripANSI(row))).toEqual(["tail 4", "status", "› next"]);
    expect(vt.problems).toEqual([]);
  });
});
