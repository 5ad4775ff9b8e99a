// The cost of one keystroke at the prompt, with a small buffer and with 10 MB
// in it: what readLine does per key (the key decoded, the editor's new state,
// the rows laid out, the redraw's bytes), timed, and the bytes it would write.
// The bar: under 16 ms a keystroke (one frame at 60 Hz) in a prompt holding
// 10 MB, the ways 10 MB gets there: pasted, or recalled from history (both
// held as placeholders). Last, a stress case no key path produces: 10 MB in
// the buffer itself, where the layout still works on the screen's rows but
// every edit copies the string (JavaScript strings are immutable).
//
//   bun run test/bench/input.bench.ts        (or: bun run bench input)

import { createEditor, type EditorState, handleKey, viewOf } from "../../src/ui/input/editor";
import { type Layout, layoutInput, redraw } from "../../src/ui/input/input-render";
import { KeyDecoder } from "../../src/ui/input/keys";

const MB10 = 10 * 1024 * 1024;
const COLUMNS = 120;
const ROWS = 40;
const PROMPT = "\x1b[1m\x1b[32m›\x1b[39m\x1b[22m ";
const CONTINUATION = " · ";

/** A prompt on a COLUMNS x ROWS terminal, driven the way readLine drives it. */
class Prompt {
  state: EditorState;
  drawn: Layout | undefined;
  readonly decoder = new KeyDecoder();

  constructor(state: EditorState) {
    this.state = state;
    this.#draw();
  }

  #draw(): number {
    const next = layoutInput(viewOf(this.state, PROMPT, CONTINUATION), { columns: COLUMNS, maxRows: ROWS, top: this.drawn?.top });
    const bytes = redraw(this.drawn, next);
    this.drawn = next;
    return Buffer.byteLength(bytes);
  }

  /** Raw terminal bytes in, the redraw's size out. */
  press(bytes: string): number {
    for (const key of this.decoder.push(bytes)) this.state = handleKey(this.state, key).state;
    return this.#draw();
  }
}

const PASTE = (text: string) => `\x1b[200~${text}\x1b[201~`;
const withText = (text: string, cursor = text.length): EditorState => ({ ...createEditor(), text, cursor });
const shortLines = () => "The quick brown fox jumps over the lazy dog, again and again and again and again.\n".repeat(Math.ceil(MB10 / 82));

interface Figures {
  median: number;
  p99: number;
  max: number;
  bytes: number;
}

function measure(prompt: Prompt, keys: string[]): Figures {
  const times: number[] = [];
  let bytes = 0;
  for (const key of keys) {
    const start = performance.now();
    bytes += prompt.press(key);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { median: times[times.length >> 1]!, p99: times[Math.floor(times.length * 0.99)]!, max: times.at(-1)!, bytes: bytes / keys.length };
}

const typing = (n: number) => Array.from({ length: n }, (_, i) => "abcdefghijklmnopqrstuvwxyz"[i % 26]!);
const repeat = (key: string, n: number) => Array<string>(n).fill(key);
const LEFT = "\x1b[D";
const BACKSPACE = "\x7f";
/** A run of edits: typing, moving left, deleting, typing again. */
const edits = () => [...typing(60), ...repeat(LEFT, 20), ...repeat(BACKSPACE, 20), ...typing(60)];

function row(name: string, f: Figures): void {
  const ms = (n: number) => n.toFixed(3).padStart(8);
  console.log(`${name.padEnd(46)} ${ms(f.median)} ${ms(f.p99)} ${ms(f.max)} ms   ${Math.round(f.bytes).toString().padStart(6)} B`);
}

// Warm up the JIT on a small prompt first, so the first scenario is not charged for it.
measure(new Prompt(withText("warm up")), [...edits(), ...edits(), ...edits()]);

console.log(`one keystroke: decode + editor + layout + redraw bytes, on a ${COLUMNS}x${ROWS} terminal; bar 16 ms with 10 MB`);
console.log(`${"".padEnd(46)} ${"median".padStart(8)} ${"p99".padStart(8)} ${"max".padStart(8)}      redraw`);

const small = measure(new Prompt(withText("fix the failing test in parse.ts and explain what was wrong")), edits());
row("small prompt (60 characters)", small);

// The person's case: 10 MB pasted (twice), typing around the placeholders.
const pasted = new Prompt(createEditor());
const text = shortLines().slice(0, MB10);
let start = performance.now();
pasted.press(PASTE(text));
const firstPaste = performance.now() - start;
start = performance.now();
pasted.press(PASTE(text));
const secondPaste = performance.now() - start;
const paste = measure(pasted, edits());
row("10 MB pasted twice (two placeholders)", paste);

// Up to a 10 MB prompt of a resumed session (sent before this process started).
const recalled = new Prompt(createEditor(["older", shortLines().slice(0, MB10)]));
recalled.press("\x1b[A");
const recall = measure(recalled, edits());
row("10 MB prompt recalled with Up", recall);

console.log("stress, no key path leads here: 10 MB in the buffer itself");
const raw: Figures[] = [];
for (const [name, make] of [
  ["10 MB in the buffer, 82-character lines", shortLines],
  ["10 MB in the buffer, one line", () => "x".repeat(MB10)],
  ["10 MB in the buffer, wide characters", () => "漢字かな".repeat(MB10 / 8)],
] as const) {
  const big = make();
  for (const [where, cursor] of [["end", big.length], ["middle", big.length >> 1]] as const) {
    const figures = measure(new Prompt(withText(big, cursor)), edits());
    raw.push(figures);
    row(`  ${name.replace("10 MB in the buffer, ", "")}, at the ${where}`, figures);
  }
}

const worst = Math.max(paste.max, recall.max);
console.log(`10 MB bracketed paste, once: ${firstPaste.toFixed(1)} ms; a second one: ${secondPaste.toFixed(1)} ms (decoding it, once per paste)`);
console.log(`a prompt holding 10 MB: slowest keystroke ${worst.toFixed(2)} ms (small prompt: ${small.max.toFixed(2)} ms) · bar 16 ms: ${worst < 16 ? "met" : "MISSED"}`);
console.log(`stress case: median ${Math.max(...raw.map((r) => r.median)).toFixed(2)} ms, p99 ${Math.max(...raw.map((r) => r.p99)).toFixed(2)} ms at worst (the string copy per edit)`);
console.log(`peak RSS ${(process.memoryUsage().rss / 1024 / 1024).toFixed(0)} MB`);
