// What the person types while a turn runs, shown on the row under the
// output as it streams (the keys go to the next prompt: see watchInterrupt).
//
// The row lives just below the cursor's row and moves with it: every write
// to the terminal goes through `stream`, which erases the row, writes, and
// draws it again under wherever the cursor ended up. It is drawn without
// knowing the cursor's column: save the cursor (ESC 7), index down (ESC D,
// which scrolls at the bottom of the screen, so the row always exists), draw,
// restore (ESC 8). Nothing is drawn, and writes pass straight through, while
// nothing is typed ahead, so the renderer's bytes are untouched then.

type Out = NodeJS.WriteStream;

const SAVE = "\x1b7";
const RESTORE = "\x1b8";
const INDEX = "\x1bD";
const REVERSE_INDEX = "\x1bM";
const ERASE_LINE = "\r\x1b[2K";
const RESET = "\x1b[0m";

/** Erases the row below the cursor, the cursor staying put. */
const ERASE = `${SAVE}${INDEX}${ERASE_LINE}${RESTORE}`;

/** Makes sure a row exists below the cursor (scrolling if needed), then draws `row` on it, the cursor staying put. */
const drawBelow = (row: string) => `${INDEX}${REVERSE_INDEX}${SAVE}${INDEX}${ERASE_LINE}${RESET}${row}${RESET}${RESTORE}`;

export class TypeAheadRow {
  #row = "";
  readonly #out: Out;
  /** The terminal, for everything written while the row may be up. */
  readonly stream: Out;

  constructor(out: Out) {
    this.#out = out;
    const write = (chunk: unknown, ...rest: unknown[]) => {
      const row = this.#row;
      if (!row) return (out.write as (...args: unknown[]) => boolean)(chunk, ...rest);
      if (typeof chunk === "string") return (out.write as (...args: unknown[]) => boolean)(ERASE + chunk + drawBelow(row), ...rest);
      out.write(ERASE);
      const done = (out.write as (...args: unknown[]) => boolean)(chunk, ...rest);
      out.write(drawBelow(row));
      return done;
    };
    this.stream = new Proxy(out, {
      get(target, property) {
        if (property === "write") return write;
        const value = Reflect.get(target, property, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  }

  /** Shows `row` (one screen row at most, already cut to the width), or removes it with "". */
  show(row: string): void {
    if (row === this.#row || !this.#out.isTTY) return;
    this.#out.write((this.#row ? ERASE : "") + (row ? drawBelow(row) : ""));
    this.#row = row;
  }
}
