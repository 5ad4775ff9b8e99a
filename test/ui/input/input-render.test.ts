import { describe, expect, test } from "bun:test";
import { createEditor, handleKey, viewOf } from "../../../src/ui/input/editor";
import { segmented } from "../../../src/ui/input/editor-text";
import { CHUNK, laidOut, type Layout, layout, layoutInput, leave, redraw } from "../../../src/ui/input/input-render";
import { VirtualTerminal } from "../virtual-terminal";

/** Layout of `text` with the cursor at "|" (removed from the text): rows and cursor. */
const at = (marked: string, columns = 10, prompt = "> ") => {
  const { rows, cursorRow, cursorCol } = layout(prompt, "· ", marked.replace("|", ""), marked.indexOf("|"), columns);
  return { rows, cursorRow, cursorCol };
};

describe("prompt layout", () => {
  test("a short line sits after the prompt, cursor where it is in the text", () => {
    expect(at("hel|lo", 80)).toEqual({ rows: ["> hello"], cursorRow: 0, cursorCol: 5 });
  });

  test("a long line wraps at the terminal width and the cursor follows onto the next row", () => {
    expect(at("abcdefghijkl|")).toEqual({ rows: ["> abcdefgh", "ijkl"], cursorRow: 1, cursorCol: 4 });
    expect(at("abcdefgh|ijkl")).toEqual({ rows: ["> abcdefgh", "ijkl"], cursorRow: 1, cursorCol: 0 });
  });

  test("rows break between words: a word that does not fit starts the next row whole; only a word longer than a row is cut", () => {
    // "description" would not fit after "the ": it moves, not cut as "descriptio|n".
    expect(at("fix the description|", 16)).toEqual({ rows: ["> fix the ", "description"], cursorRow: 1, cursorCol: 11 });
    expect(at("use gpt-5-mini| now", 14)).toEqual({ rows: ["> use ", "gpt-5-mini now"], cursorRow: 1, cursorCol: 10 });
    // A space where a row ends is its break, drawn as nothing.
    expect(at("abcdefgh ijk|")).toEqual({ rows: ["> abcdefgh", "ijk"], cursorRow: 1, cursorCol: 3 });
    // Longer than a row: cut where the row ends, as before.
    expect(at("a bcdefghijklmnop|")).toEqual({ rows: ["> a ", "bcdefghijk", "lmnop"], cursorRow: 2, cursorCol: 5 });
    // The cursor inside the moved word moves with it; before it, it stays.
    expect(at("fix the desc|ription", 16)).toEqual({ rows: ["> fix the ", "description"], cursorRow: 1, cursorCol: 4 });
    expect(at("fix t|he description", 16)).toEqual({ rows: ["> fix the ", "description"], cursorRow: 0, cursorCol: 7 });
  });

  test("random words at random widths: a row ends inside a word only when that word is wider than a row; nothing is lost", () => {
    let seed = 7;
    const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const words = ["a", "to", "the", "words", "description", "gpt-5-mini", "x".repeat(30), "日本語", "🎉"];
    for (let i = 0; i < 2000; i++) {
      const text = Array.from({ length: 1 + random(25) }, () => words[random(words.length)]).join(" ");
      const columns = 4 + random(40);
      let cursor = random(text.length + 1);
      if (/[\udc00-\udfff]/.test(text[cursor] ?? "")) cursor--; // never inside a surrogate pair, as the editor never is
      const { rows } = layout("", "", text, cursor, columns);
      for (const row of rows) expect(Bun.stringWidth(row)).toBeLessThanOrEqual(columns);
      let at = 0; // where the row starts in the text
      for (const [r, row] of rows.entries()) {
        expect(text.startsWith(row, at)).toBe(true);
        at += row.length;
        if (r + 1 === rows.length) break;
        if (text[at] === " " && !rows[r + 1]!.startsWith(" ")) at++; // the space the row broke at, drawn as nothing
        else if (at < text.length && text[at - 1] !== " " && text[at] !== " ") {
          // Cut inside a word: the word must be wider than a row.
          const word = /\S+$/.exec(text.slice(0, at))![0] + /^\S+/.exec(text.slice(at))![0];
          expect({ text, columns, word, longer: Bun.stringWidth(word) > columns }).toEqual({ text, columns, word, longer: true });
        }
      }
      expect(at).toBe(text.length);
      expect(rows.join("").replace(/ /g, "")).toBe(text.replace(/ /g, ""));
    }
  });

  test("a recalled prompt holding escape sequences is drawn made safe, one cell per control picture", () => {
    expect(at("a\x1b]0;x\x07b|", 80)).toEqual({ rows: ["> a␛]0;x␇b"], cursorRow: 0, cursorCol: 10 });
  });

  test("a cursor just past a full row is shown at the start of the next one", () => {
    expect(at("abcdefgh|")).toEqual({ rows: ["> abcdefgh", ""], cursorRow: 1, cursorCol: 0 });
  });

  test("a wide character that does not fit in the last cell moves to the next row", () => {
    expect(at("abcdefg你|")).toEqual({ rows: ["> abcdefg", "你"], cursorRow: 1, cursorCol: 2 });
  });

  test("later lines of a multi-line input get the continuation prefix", () => {
    expect(at("ab\nc|d", 80)).toEqual({ rows: ["> ab", "· cd"], cursorRow: 1, cursorCol: 3 });
    expect(at("ab|\n\ncd", 80)).toEqual({ rows: ["> ab", "· ", "· cd"], cursorRow: 0, cursorCol: 4 });
  });

  test("colour codes in the prompt take no columns; tabs are drawn as spaces", () => {
    expect(at("a|", 80, "\x1b[32m>\x1b[39m ").cursorCol).toBe(3);
    expect(at("a\tb|", 80)).toEqual({ rows: ["> a    b"], cursorRow: 0, cursorCol: 8 });
  });

  test("a paste's marker is drawn as its placeholder, one unit for the cursor", () => {
    let state = handleKey(createEditor(), { type: "text", text: "see " }).state;
    state = handleKey(state, { type: "paste", text: "x\n".repeat(3000) }).state;
    state = handleKey(state, { type: "text", text: " ok" }).state;
    const shown = layoutInput(viewOf(state, "> ", "· "), { columns: 80 });
    expect(shown.rows).toEqual(["> see [pasted 3,000 lines] ok"]);
    expect(shown.cursorCol).toBe(29);
  });
});

describe("an input taller than the screen", () => {
  const lines = Array.from({ length: 100 }, (_, i) => `line ${i}`).join("\n");
  const view = (cursor: number) => ({ prompt: "> ", continuation: "· ", text: lines, cursor });

  test("is shown through a window of maxRows rows around the cursor, as much above it as fits", () => {
    const end = layoutInput(view(lines.length), { columns: 40, maxRows: 10 });
    expect(end.rows).toEqual(Array.from({ length: 10 }, (_, i) => `· line ${90 + i}`));
    expect(end.cursorRow).toBe(9);
    const start = layoutInput(view(0), { columns: 40, maxRows: 10 });
    expect(start.rows[0]).toBe("> line 0");
    expect(start.rows).toHaveLength(10);
    expect(start.cursorRow).toBe(0);
  });

  test("the window stays put while the cursor moves inside it, and scrolls a row at a time past its edges", () => {
    const end = layoutInput(view(lines.length), { columns: 40, maxRows: 10 });
    const fiveUp = lines.indexOf("line 95");
    const inside = layoutInput(view(fiveUp), { columns: 40, maxRows: 10, top: end.top });
    expect(inside.rows).toEqual(end.rows);
    expect(inside.cursorRow).toBe(5);
    const above = layoutInput(view(lines.indexOf("line 89")), { columns: 40, maxRows: 10, top: end.top });
    expect(above.rows[0]).toBe("· line 89");
    expect(above.cursorRow).toBe(0);
    const below = layoutInput(view(lines.length), { columns: 40, maxRows: 10, top: above.top });
    expect(below.rows.at(-1)).toBe("· line 99");
  });

  test("every window is the same rows as the whole layout, for any text, width and cursor", () => {
    // Mixed scripts, wide and combining characters, tabs, empty lines and a line longer than CHUNK.
    const pieces = ["a", "bc ", "你好", "e\u0301", "👍🏽", "\t", "\n", "\n\n", "x".repeat(50), "漢字かな", "🇫🇷"];
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let round = 0; round < 60; round++) {
      let text = "";
      const size = round % 10 === 0 ? CHUNK * 3 : 300;
      while (text.length < size) text += pieces[random(pieces.length)]!;
      if (round % 10 === 0) text = text.replace(/\n/g, "");
      // A cursor on a grapheme boundary: the end of some piece.
      const boundaries = [0];
      for (const { index, segment } of new Intl.Segmenter().segment(text)) boundaries.push(index + segment.length);
      const cursor = boundaries[random(boundaries.length)]!;
      const columns = 5 + random(40);
      const maxRows = 1 + random(12);
      const whole = layoutInput({ prompt: "> ", continuation: "· ", text, cursor }, { columns });
      const window = layoutInput({ prompt: "> ", continuation: "· ", text, cursor }, { columns, maxRows });
      const first = whole.cursorRow - window.cursorRow;
      expect(window.rows).toEqual(whole.rows.slice(first, first + window.rows.length));
      expect(window.cursorCol).toBe(whole.cursorCol);
      expect(window.rows.length).toBe(Math.min(maxRows, whole.rows.length));
    }
  });

  test("a line longer than CHUNK also breaks a row every CHUNK characters, and only there", () => {
    const text = "y".repeat(CHUNK + 10);
    const shown = layoutInput({ prompt: "", continuation: "", text, cursor: text.length }, { columns: 1000 });
    expect(shown.rows.map((r) => r.length)).toEqual([1000, 1000, 1000, 1000, CHUNK - 4000, 10]);
  });
});

describe("a keystroke in a 10 MB buffer", () => {
  const MB10 = 10 * 1024 * 1024;
  const buffers = {
    "short lines": "abcdefghij ".repeat(9).concat("\n").repeat(Math.ceil(MB10 / 100)),
    "one line": "x".repeat(MB10),
    "wide characters": "你好".repeat(MB10 / 4),
  };

  /** Graphemes laid out and characters segmented for one key, the view following the cursor as readLine's does. */
  function work(text: string, cursor: number, key: Parameters<typeof handleKey>[1]) {
    let state = { ...createEditor(), text, cursor };
    const before = layoutInput(viewOf(state, "> ", "· "), { columns: 110, maxRows: 40 });
    laidOut.graphemes = 0;
    segmented.chars = 0;
    state = handleKey(state, key).state;
    const after = layoutInput(viewOf(state, "> ", "· "), { columns: 110, maxRows: 40, top: before.top });
    return { graphemes: laidOut.graphemes, segmented: segmented.chars, bytes: redraw(before, after).length };
  }

  for (const [name, text] of Object.entries(buffers)) {
    test(`(${name}) does not lay out the whole text: a few screens' worth at most, wherever the cursor is`, () => {
      for (const cursor of [text.length, text.length >> 1, 0]) {
        for (const key of [{ type: "text", text: "z" }, { type: "key", name: "backspace", ctrl: false, alt: false, shift: false }, { type: "key", name: "left", ctrl: false, alt: false, shift: false }] as const) {
          const cost = work(text, cursor, key);
          expect(cost.graphemes).toBeLessThan(3 * CHUNK + 40 * 110);
          expect(cost.segmented).toBeLessThan(4 * CHUNK + 40 * 110);
          expect(cost.bytes).toBeLessThan(40 * 110 * 4);
        }
      }
    });
  }
});

describe("redraw", () => {
  const draw = (text: string, cursor = text.length, columns = 10, below: string[] = []): Layout =>
    layoutInput({ prompt: "> ", continuation: "· ", text, cursor }, { columns, below });

  test("the first draw writes every row, then puts the cursor on its row and column", () => {
    expect(redraw(undefined, draw("ab\ncd", 2, 80))).toBe("\x1b[?25l\r\x1b[2K> ab\r\n\x1b[2K· cd\x1b[1A\r\x1b[4C\x1b[?25h");
  });

  test("later draws rewrite only the rows that changed, erase rows left over, then place the cursor", () => {
    expect(redraw(draw("abcdefghijkl"), draw("ab"))).toBe("\x1b[?25l\x1b[1A\r\x1b[2K> ab\x1b[1B\r\x1b[2K\x1b[1A\r\x1b[4C\x1b[?25h");
    expect(redraw(draw("one\ntwo\nthree", 0, 80), draw("one\ntwo\nthreeX", 0, 80))).toBe("\x1b[?25l\x1b[2B\r\x1b[2K· threeX\x1b[2A\r\x1b[2C\x1b[?25h");
  });

  test("a row added at the bottom is reached by a line feed (which scrolls), and nothing changed writes nothing", () => {
    expect(redraw(draw("abcdefgh", 0), draw("abcdefghi", 0))).toBe("\x1b[?25l\r\n\x1b[2Ki\x1b[1A\r\x1b[2C\x1b[?25h");
    expect(redraw(draw("abc"), draw("abc"))).toBe("");
  });

  test("after a resize the block drawn at the old width is erased as the terminal reflowed it, then drawn anew", () => {
    const wide = draw("abcdefghijklmnop", 16, 20); // one row of 18 cells, the cursor after it
    const narrow = draw("abcdefghijklmnop", 16, 10);
    // At 10 columns the old row takes 2: up 1 to its first, erase both, back up, draw.
    expect(redraw(wide, narrow)).toStartWith("\x1b[?25l\x1b[1A\r\x1b[2K\x1b[1B\x1b[2K\x1b[1A\r\x1b[2K> abcdefgh\r\n");
  });

  test("rows under the input are drawn after it; leaving moves below the last row and onto a fresh line", () => {
    const shown = draw("ab", 2, 80, ["hint"]);
    expect(shown.rows).toEqual(["> ab", "hint"]);
    expect(shown.cursorRow).toBe(0);
    expect(leave(shown)).toBe("\x1b[1B\r\n");
    expect(leave(draw("ab\ncd\nef", 2, 80))).toBe("\x1b[2B\r\n");
    expect(leave(draw("ab", 2, 80))).toBe("\r\n");
  });
});

describe("resizes in a terminal that reflows as tmux does", () => {
  const TEXT = "this is a fairly long input line that I am typing into the box so that it wraps over more than one row at sixty columns wide";
  const at = (text: string, columns: number) => layoutInput({ prompt: "› ", continuation: "· ", text, cursor: text.length }, { columns });
  /** `above` rows of output, then the input drawn at 100 columns and redrawn after each resize in `widths`. */
  const resized = (text: string, above: number, widths: number[]) => {
    const terminal = new VirtualTerminal(100, 30, { bottomAnchored: true });
    for (let i = 0; i < above; i++) terminal.write(`output ${i}\r\n`);
    let drawn = at(text, 100);
    terminal.write(redraw(undefined, drawn));
    for (const width of widths) {
      terminal.resize(width);
      const next = at(text, width);
      terminal.write(redraw(drawn, next));
      drawn = next;
    }
    return { terminal, drawn };
  };
  const SEQUENCES = [[40, 100], [30, 100], [40, 60, 100], [30, 60, 100], [20, 100], [60, 40, 80]];

  test("with rows of output above it: every width draws the input once, and nothing of an earlier drawing is left, scrollback included", () => {
    for (const text of [TEXT, `${TEXT} and a third row of words to make it longer still, as a person might type`]) {
      for (const widths of SEQUENCES) {
        const { terminal, drawn } = resized(text, 20, widths);
        expect({ widths, problems: terminal.problems }).toEqual({ widths, problems: [] });
        expect({ widths, copies: terminal.text().split("› this").length - 1 }).toEqual({ widths, copies: 1 });
        const screen = terminal.screen();
        const first = screen.indexOf(drawn.rows[0]!);
        expect({ widths, rows: screen.slice(first, first + drawn.rows.length) }).toEqual({ widths, rows: drawn.rows });
        expect(screen.slice(first + drawn.rows.length).every((row) => row === "")).toBe(true);
      }
    }
  });

  // tmux keeps the screen's bottom row in place on a narrowing (blank rows under the cursor included): with the
  // input in the screen's first rows, the rows the split adds push its first rows into the scrollback, where no
  // cursor movement reaches, and a widening later leaves them there as a copy of the input's start. Not fixed yet.
  test.failing("in the screen's first rows: a narrowing leaves nothing of the input in the scrollback", () => {
    for (const widths of [[40, 100], [30, 100]]) {
      const { terminal } = resized(TEXT, 0, widths);
      expect({ widths, problems: terminal.problems }).toEqual({ widths, problems: [] });
      expect({ widths, copies: terminal.text().split("› this").length - 1 }).toEqual({ widths, copies: 1 });
    }
  });

  // The same, reached from the screen's bottom: each narrowing grows the input upward, each widening redraws it
  // from its first row and leaves the rows it no longer needs blank under it, so every cycle moves it up. Not fixed yet.
  test.failing("with a screen of output above it: narrowing and widening again and again leaves nothing of the input in the scrollback", () => {
    const { terminal } = resized(TEXT, 30, Array.from({ length: 12 }, () => [30, 100]).flat());
    expect(terminal.problems).toEqual([]);
    expect(terminal.text().split("› this").length - 1).toBe(1);
  });
});
