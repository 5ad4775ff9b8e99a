import { describe, expect, test } from "bun:test";
import { layout, leave, redraw } from "../../src/ui/input-render";

/** Layout of `text` with the cursor at "|" (removed from the text). */
const at = (marked: string, columns = 10, prompt = "> ") =>
  layout(prompt, "· ", marked.replace("|", ""), marked.indexOf("|"), columns);

describe("prompt layout", () => {
  test("a short line sits after the prompt, cursor where it is in the text", () => {
    expect(at("hel|lo", 80)).toEqual({ rows: ["> hello"], cursorRow: 0, cursorCol: 5 });
  });

  test("a long line wraps at the terminal width and the cursor follows onto the next row", () => {
    expect(at("abcdefghijkl|")).toEqual({ rows: ["> abcdefgh", "ijkl"], cursorRow: 1, cursorCol: 4 });
    expect(at("abcdefgh|ijkl")).toEqual({ rows: ["> abcdefgh", "ijkl"], cursorRow: 1, cursorCol: 0 });
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
});

describe("redraw", () => {
  test("goes back up to the first row drawn, rewrites each row, erases rows left over, then places the cursor", () => {
    const before = at("abcdefghijkl|");
    const after = at("ab|");
    expect(redraw(before, after)).toBe("\x1b[?25l\x1b[1A\r\x1b[2K> ab\r\n\x1b[2K\x1b[1A\r\x1b[4C\x1b[?25h");
  });

  test("a cursor on an earlier row is reached by moving up from the last row", () => {
    expect(redraw(undefined, at("ab|\ncd", 80))).toBe("\x1b[?25l\r\x1b[2K> ab\r\n\x1b[2K· cd\x1b[1A\r\x1b[4C\x1b[?25h");
  });

  test("leaving moves below the last row and onto a fresh line", () => {
    expect(leave(at("ab|\ncd\nef", 80))).toBe("\x1b[2B\r\n");
    expect(leave(at("ab|", 80))).toBe("\r\n");
  });
});
