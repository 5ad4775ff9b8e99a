// The type-ahead row (src/ui/type-ahead.ts): the bytes it puts around the
// renderer's writes while it is up, and none while it is not.
import { describe, expect, test } from "bun:test";
import { TypeAheadRow } from "../../src/ui/type-ahead";

function terminal(isTTY = true) {
  let written = "";
  const out = {
    isTTY,
    columns: 80,
    write(chunk: string) {
      written += chunk;
      return true;
    },
  };
  return { out: out as unknown as NodeJS.WriteStream, written: () => written, clear: () => (written = "") };
}

const ERASE = "\x1b7\x1bD\r\x1b[2K\x1b8";
const DRAW = (row: string) => `\x1bD\x1bM\x1b7\x1bD\r\x1b[2K\x1b[0m${row}\x1b[0m\x1b8`;

describe("the type-ahead row", () => {
  test("while nothing is typed ahead, writes pass through untouched", () => {
    const t = terminal();
    const row = new TypeAheadRow(t.out);
    row.stream.write("streamed text\n");
    expect(t.written()).toBe("streamed text\n");
    expect(row.stream.columns).toBe(80); // everything else is the terminal's own
  });

  test("shown below the cursor without moving it; every write erases it first and draws it again after", () => {
    const t = terminal();
    const row = new TypeAheadRow(t.out);
    row.show("› next");
    expect(t.written()).toBe(DRAW("› next"));
    t.clear();
    row.stream.write("more words");
    expect(t.written()).toBe(`${ERASE}more words${DRAW("› next")}`);
    t.clear();
    row.show("› next one");
    expect(t.written()).toBe(ERASE + DRAW("› next one"));
    t.clear();
    row.show("› next one");
    expect(t.written()).toBe("");
    row.show("");
    expect(t.written()).toBe(ERASE);
    t.clear();
    row.stream.write("x");
    expect(t.written()).toBe("x");
  });

  test("nothing is drawn when the output is not a terminal", () => {
    const t = terminal(false);
    new TypeAheadRow(t.out).show("› next");
    expect(t.written()).toBe("");
  });
});
