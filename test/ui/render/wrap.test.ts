// Issue 12, item 1: text wrapped to the terminal by display width as it
// streams. It is what colour off shows (the answer's markdown source) and what
// the live answer shows of the block still growing, whose rows it must count.
import { describe, expect, test } from "bun:test";
import { wrapText, WrapStream } from "../../../src/ui/render/wrap";
import { prng } from "../../support/prng";
import { cutIntoDeltas } from "./markdown-corpus";

/** The columns a row takes, tabs to the next multiple of 8, as a terminal moves. */
function columnsOf(row: string): number {
  let col = 0;
  for (const part of row.split(/(\t)/)) col = part === "\t" ? (Math.floor(col / 8) + 1) * 8 : col + Bun.stringWidth(part);
  return col;
}

describe("wrapping by display width", () => {
  test("words move to the next row whole; wide characters count two columns, as Bun.stringWidth says", () => {
    expect(wrapText("the quick brown fox jumps over", 10)).toBe("the quick\nbrown fox\njumps over");
    // 你好 is 4 columns: two of them and a space fill 9 of 10, a third goes on.
    expect(wrapText("你好 你好 你好", 10)).toBe("你好 你好\n你好");
    expect(Bun.stringWidth("你好 你好")).toBe(9);
    // An emoji is 2 columns, a family of them joined by ZWJ too, an accent on a letter none.
    expect(wrapText("🎉🎉🎉 👩‍👩‍👧 e\u0301e\u0301", 8)).toBe("🎉🎉🎉\n👩‍👩‍👧 e\u0301e\u0301");
  });

  test("a word wider than the row is cut between graphemes, never inside one", () => {
    expect(wrapText("abcdefghijklmnopqrstuvwxyz", 10)).toBe("abcdefghij\nklmnopqrst\nuvwxyz");
    expect(wrapText("日本語のテキスト", 5)).toBe("日本\n語の\nテキ\nスト");
    expect(wrapText("👩‍👩‍👧👩‍👩‍👧👩‍👩‍👧", 5)).toBe("👩‍👩‍👧👩‍👩‍👧\n👩‍👩‍👧");
  });

  test("indentation and tabs are kept, and count as the terminal will show them", () => {
    expect(wrapText("    indented code here\n\tx\ty", 40)).toBe("    indented code here\n\tx\ty");
    expect(wrapText("  - a list item that wraps", 12)).toBe("  - a list\nitem that\nwraps");
    expect(columnsOf("\tx\ty")).toBe(17);
    expect(wrapText("\tx\ty z", 17)).toBe("\tx\ty\nz");
  });

  test("text that fits is written as it came, spaces included", () => {
    const text = "héllo  wörld \n\n  two  spaces\t\n";
    expect(wrapText(text, 80)).toBe(text);
  });

  test("the rows it has written, and the row of the last text, are known (what the live view erases)", () => {
    const stream = new WrapStream(10);
    expect(stream.push("one two three four\n\n")).toBe("one two\nthree four\n\n");
    expect({ rows: stream.rows, column: stream.column, textRow: stream.textRow }).toEqual({ rows: 3, column: 0, textRow: 1 });
    expect(stream.push("five")).toBe(""); // held: "five" may still grow
    expect(stream.end()).toBe("five");
  });

  test("streamed in deltas cut anywhere, the rows are those of the whole text, and none is wider than the terminal", () => {
    const r = prng(41);
    const words = ["a", "bb", "word ", " ", "  ", "\t", "\n", "\n\n", "你好", "🎉", "e\u0301", "👩‍👩‍👧", "averyveryverylongword", "x"];
    let checked = 0;
    for (let i = 0; i < 5000; i++) {
      const text = Array.from({ length: r.int(1, 30) }, () => r.pick(words)).join("");
      const width = r.int(2, 60);
      const whole = wrapText(text, width);
      const stream = new WrapStream(width);
      const streamed = cutIntoDeltas(r, text, 6).map((d) => stream.push(d)).join("") + stream.end();
      expect(streamed).toBe(whole);
      for (const row of whole.split("\n")) expect(columnsOf(row)).toBeLessThanOrEqual(width);
      expect(whole.replace(/\s/g, "")).toBe(text.replace(/\s/g, "")); // nothing lost, nothing added
      checked++;
    }
    expect(checked).toBe(5000);
  });

  test("a word of many rows in one delta gives the rows it gives a character at a time (ASCII, and with wide characters)", () => {
    for (const word of ["x".repeat(10_000), "ab你好🎉e\u0301".repeat(2_000)]) {
      const whole = new WrapStream(37);
      const shown = whole.push(`go ${word}`);
      expect(shown.split("\n").length).toBeGreaterThan(100); // rows are written as the word fills them, not held
      const piecewise = new WrapStream(37);
      const pieces = ["go ", ...Array.from(new Intl.Segmenter().segment(word), (s) => s.segment)].map((d) => piecewise.push(d)).join("");
      expect(pieces).toBe(shown);
      expect(piecewise.end()).toBe(whole.end());
      expect({ rows: piecewise.rows, column: piecewise.column }).toEqual({ rows: whole.rows, column: whole.column });
    }
  });
});
