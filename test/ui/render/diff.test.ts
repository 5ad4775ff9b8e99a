// Issue 12, item 2: what write and edit changed, as a unified diff. The line
// diff is the shortest (checked against a longest-common-subsequence count),
// hunks carry three lines of context, long diffs and new files are cut with a
// count of what is left out, CRLF files show without their CRs, and bytes that
// are not UTF-8 or are controls are shown safely.
import { describe, expect, test } from "bun:test";
import { colorsFor } from "../../../src/ui/render/colors";
import { changedRegion, renderChange } from "../../../src/ui/render/diff-view";
import { diffLines, hunks } from "../../../src/ui/render/diff";
import { prng } from "../../support/prng";
import { CONTROL, unstyled } from "../../support/terminal-text";

const plain = colorsFor({ isTTY: false });
const colored = colorsFor({ isTTY: true }, {});
const bytes = (text: string) => Buffer.from(text);
const numbered = (n: number, change: (i: number) => string | undefined = () => undefined) =>
  Array.from({ length: n }, (_, i) => `${change(i + 1) ?? `line ${i + 1}`}\n`).join("");
const show = (before: string | Buffer | undefined, after: string | Buffer, width = 60, rows?: number) =>
  renderChange(
    { created: before === undefined, ...(before === undefined ? {} : { before: typeof before === "string" ? bytes(before) : before }), after: typeof after === "string" ? bytes(after) : after },
    plain,
    width,
    rows,
  );

describe("the line diff", () => {
  test("is a shortest edit script: it keeps as many lines as the longest common subsequence", () => {
    const r = prng(5);
    for (let t = 0; t < 2000; t++) {
      const a = Array.from({ length: r.int(0, 14) }, () => r.pick(["a", "b", "c", "d"]));
      const b = Array.from({ length: r.int(0, 14) }, () => r.pick(["a", "b", "c", "d"]));
      const ops = diffLines({ lines: a, noNewline: false }, { lines: b, noNewline: false });
      expect(ops.filter((o) => o.kind !== "+").map((o) => o.text)).toEqual(a);
      expect(ops.filter((o) => o.kind !== "-").map((o) => o.text)).toEqual(b);
      const lcs = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
      for (let i = 1; i <= a.length; i++) for (let j = 1; j <= b.length; j++) lcs[i]![j] = a[i - 1] === b[j - 1] ? lcs[i - 1]![j - 1]! + 1 : Math.max(lcs[i - 1]![j]!, lcs[i]![j - 1]!);
      expect(ops.filter((o) => o.kind === " ").length).toBe(lcs[a.length]![b.length]!);
    }
  });

  test("hunks: three lines of context, merged when they touch, numbered from the first line", () => {
    const a = Array.from({ length: 20 }, (_, i) => String(i + 1));
    const b = a.map((l) => (l === "5" ? "five" : l === "16" ? "sixteen" : l));
    const found = hunks(diffLines({ lines: a, noNewline: false }, { lines: b, noNewline: false }), 3, 1);
    expect(found.map((h) => [h.oldStart, h.oldLines, h.newStart, h.newLines])).toEqual([
      [2, 7, 2, 7],
      [13, 7, 13, 7],
    ]);
    const close = a.map((l) => (l === "5" || l === "10" ? `${l}!` : l));
    expect(hunks(diffLines({ lines: a, noNewline: false }, { lines: close, noNewline: false })).length).toBe(1);
  });
});

describe("a change shown as a diff", () => {
  test("an edit: its hunk with three lines of context and the file's line numbers", () => {
    expect(show(numbered(30), numbered(30, (i) => (i === 12 ? "line twelve!" : undefined)))).toEqual([
      "@@ -9,7 +9,7 @@",
      " line 9",
      " line 10",
      " line 11",
      "-line 12",
      "+line twelve!",
      " line 13",
      " line 14",
      " line 15",
    ]);
  });

  test("coloured: removed lines red, added green, context dim, headers cyan", () => {
    const rows = renderChange({ created: false, before: bytes("a\nb\n"), after: bytes("a\nc\n") }, colored, 60);
    expect(rows).toEqual([colored.cyan("@@ -1,2 +1,2 @@"), colored.dim(" a"), colored.red("-b"), colored.green("+c")]);
  });

  test("a long diff is cut, with a count of the lines left out and of their changes", () => {
    const rows = show(numbered(200), numbered(200, (i) => (i % 2 ? `odd ${i}` : undefined)), 60, 20);
    expect(rows).toHaveLength(21);
    expect(rows[0]).toBe("@@ -1,200 +1,200 @@");
    expect(rows.slice(1, 4)).toEqual(["-line 1", "+odd 1", " line 2"]);
    // 300 lines in the hunk (100 kept, 100 removed, 100 added), 19 of them shown.
    expect(rows[20]).toBe("… 281 more lines (+94 -93)");
  });

  test("a new file: its first lines as added, then how many more", () => {
    expect(show(undefined, numbered(25), 60, 5)).toEqual(["+line 1", "+line 2", "+line 3", "+line 4", "+line 5", "… 20 more lines"]);
    expect(show(undefined, "just one line")).toEqual(["+just one line"]);
  });

  test("a CRLF file edited: no CR shown; once its endings are mixed, each CR is shown as ␍", () => {
    expect(show("one\r\ntwo\r\nthree\r\n", "one\r\n2\r\nthree\r\n")).toEqual(["@@ -1,3 +1,3 @@", " one", "-two", "+2", " three"]);
    expect(show("one\r\ntwo\r\n", "one\r\ntwo\n")).toEqual(["@@ -1,2 +1,2 @@", " one␍", "-two␍", "+two"]);
  });

  test("bytes that are not UTF-8, and controls, are shown safely; the diff holds no control", () => {
    const before = Buffer.concat([bytes("caf"), Buffer.from([0xe9]), bytes("\nx = 1;"), Buffer.from([0xff]), bytes("\n\x1b]0;title\x07\n")]);
    const after = Buffer.concat([bytes("caf"), Buffer.from([0xe9]), bytes("\nx = 2;"), Buffer.from([0xff]), bytes("\n\x1b]0;title\x07\n")]);
    const rows = show(before, after);
    expect(rows).toEqual(["@@ -1,3 +1,3 @@", " caf\ufffd", "-x = 1;\ufffd", "+x = 2;\ufffd", " ␛]0;title␇"]);
    const styled = renderChange({ created: false, before, after }, colored, 60);
    expect(unstyled(styled.join("\n"))).not.toMatch(CONTROL);
  });

  test("a binary file is named, not shown; an unchanged one says so; a file too large to keep shows its new lines", () => {
    expect(show("a\0b", "a\0c")).toEqual(["binary file changed: 3 bytes -> 3 bytes"]);
    expect(show(undefined, Buffer.from([0, 1, 2]))).toEqual(["binary file, 3 bytes"]);
    expect(show("same\n", "same\n")).toEqual(["(no changes)"]);
    expect(renderChange({ created: false, after: bytes("new\n") }, plain, 60)).toEqual(["(the previous content was too large to compare)", "+new"]);
  });

  test("a last line without a newline says so", () => {
    expect(show("a\nb", "a\nb\n")).toEqual(["@@ -1,2 +1,2 @@", " a", "-b", "\\ No newline at end of file", "+b"]);
  });

  test("lines keep their indentation and tab columns and wrap by display width between words, their later rows under their text", () => {
    const rows = show("\tif (x) {\n", `\tif (y) { ${"你好".repeat(30)} }\n`, 30);
    expect(rows[1]).toBe("-        if (x) {");
    expect(rows[2]).toBe("+        if (y) {");
    expect(rows[3]).toStartWith("         你好");
    expect(rows.at(-1)).toBe("         }");
    for (const row of rows) expect(Bun.stringWidth(row)).toBeLessThanOrEqual(30);
    expect(rows.slice(2).join("").replace(/\s/g, "")).toBe(`+if(y){${"你好".repeat(30)}}`); // nothing cut
  });

  test("a one-line edit in a large file diffs only the lines around it", () => {
    const big = numbered(200_000); // ~2.3 MB
    const edited = big.replace("line 123456\n", "line 123456 edited\n");
    const region = changedRegion(bytes(big), bytes(edited))!;
    // Three lines of context either side, cut from the bytes: nothing before line 123,453 was decoded.
    expect(region.firstLine).toBe(123_453);
    expect(region.before.toString()).toBe(numbered(123_459).split("\n").slice(123_452, 123_459).join("\n") + "\n");
    const started = performance.now();
    expect(show(big, edited).slice(0, 1)).toEqual(["@@ -123453,7 +123453,7 @@"]);
    expect(performance.now() - started).toBeLessThan(500);
  });
});
