// The bar of issue 12: rendering keeps up with the stream. Side by side, in
// one run, on the same deltas of a 3,000-line answer:
//   - plain: what awl did before, writing each delta as safe text;
//   - rendered: the REPL's renderer (TurnRenderer, colour on, a 100x40
//     terminal), markdown blocks rendered as they close and the growing one
//     shown plainly and replaced;
//   - with rows: the same, with the rows the REPL keeps under the output
//     (live-area.ts: the status line and a typed-ahead row) erased and drawn
//     again around every write that could reach them.
// Both write their bytes to a terminal: this file runs itself with its
// standard output on a pseudo-terminal (Bun.Terminal), whose other end this
// process drains, as a terminal emulator would; one write(2) per delta, as
// awl does. CPU time is process.cpuUsage() of the writing process, user and
// system (the kernel's tty work is the writer's), median of RUNS. The same is
// measured into /dev/null, where a write costs next to nothing: the renderer's
// own cost, against the bare minimum of passing the deltas on. Also: the whole
// answer rendered at once (the resume transcript, or an answer to a pipe).
// And a word of 1 MB with no space in it (a hash, base64, minified code) in
// one delta, plain and rendered: wrapping must stay linear in its length.
// Printed, not asserted.
//
//   bun run test/bench/render.bench.ts        (or: bun run bench render)

import { closeSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AgentEvent } from "../../src/agent/events";
import { colorsFor } from "../../src/ui/render/colors";
import { LiveArea } from "../../src/ui/live/live-area";
import { renderAnswer } from "../../src/ui/render/markdown-stream";
import { TurnRenderer } from "../../src/ui/live/render";
import { SafeTextStream } from "../../src/ui/render/safe-text";
import { deltas, longAnswer } from "./answer-data";

const LINES = 3000;
const RUNS = 9;

const COLUMNS = 100;
const LONG_WORD = "0123456789abcdef".repeat(65_536); // 1 MiB, no space
const ROWS = 40;

const resultsFile = process.argv[process.argv.indexOf("--measure") + 1];
if (process.argv.includes("--measure") && resultsFile) measure(resultsFile);
else await onTerminal();

/** Runs the measurement with its standard output on a pseudo-terminal, and prints what it found. */
async function onTerminal(): Promise<void> {
  const file = join(tmpdir(), `awl-render-bench-${process.pid}.json`);
  let received = 0;
  const terminal = new Bun.Terminal({ cols: COLUMNS, rows: ROWS, data: (_, data) => void (received += data.length) });
  try {
    const child = Bun.spawn(["bun", import.meta.path, "--measure", file], { terminal });
    if ((await child.exited) !== 0) throw new Error(`the measurement failed (exit ${child.exitCode})`);
    const r = JSON.parse(readFileSync(file, "utf8")) as Results;
    const perDelta = (ms: number) => ((ms * 1000) / r.deltas).toFixed(2);
    const line = (name: string, plain: number, rendered: number) =>
      `  ${name.padEnd(12)} plain ${perDelta(plain)} µs, rendered ${perDelta(rendered)} µs CPU per delta = ${(rendered / plain).toFixed(2)}x`;
    console.log(`${LINES.toLocaleString("en-US")}-line answer, ${r.characters.toLocaleString("en-US")} characters, ${r.deltas.toLocaleString("en-US")} deltas of 1-12 characters; median of ${RUNS} runs, ${COLUMNS}x${ROWS}`);
    console.log(`${line("terminal", r.tty.plain, r.tty.rendered)}  (bar: under 2x)`);
    console.log(`${line("  with rows", r.tty.plain, r.tty.withRows)}  (the status line and a typed-ahead row under it)`);
    console.log(`${line("/dev/null", r.devnull.plain, r.devnull.rendered)}  (the renderer's own cost)`);
    console.log(`  the whole answer streamed and rendered to the terminal: ${r.tty.renderedWall.toFixed(0)} ms wall  (bar: under 1 s)`);
    console.log(`  the whole answer rendered at once (transcript, pipe): ${r.whole.toFixed(0)} ms wall`);
    console.log(`  a 1 MiB word in one delta: plain ${r.longWord.plain.toFixed(0)} ms, rendered ${r.longWord.rendered.toFixed(0)} ms CPU  (bar: well under 1 s)`);
    console.log(`  (${(received / 1e6).toFixed(0)} MB reached the terminal)`);
  } finally {
    terminal.close();
    rmSync(file, { force: true });
  }
}

interface Results {
  deltas: number;
  characters: number;
  tty: { plain: number; rendered: number; renderedWall: number; withRows: number };
  devnull: { plain: number; rendered: number };
  whole: number;
  longWord: { plain: number; rendered: number };
}

function measure(file: string): void {
  const answer = longAnswer(LINES);
  const pieces = deltas(answer);
  const colored = colorsFor({ isTTY: true }, {});
  const devnull = openSync("/dev/null", "w");
  const sinks = {
    tty: { isTTY: true, columns: COLUMNS, rows: ROWS, write: (s: string) => writeSync(1, s) },
    devnull: { isTTY: true, columns: COLUMNS, rows: ROWS, write: (s: string) => writeSync(devnull, s) },
  };
  type Sink = (typeof sinks)["tty"];

  /** What awl did before: each delta written as safe text. */
  const plain = (out: Sink, text = pieces) => () => {
    const safe = new SafeTextStream();
    for (const piece of text) {
      const text = safe.push(piece);
      if (text) out.write(text);
    }
    out.write(`${safe.end()}\n`);
  };
  /** The REPL's renderer, colour on, on a terminal; `rows`: with the status line and a typed-ahead row under the output. */
  const rendered = (out: Sink, rows = false, text = pieces) => () => {
    const live = rows ? new LiveArea(out as unknown as NodeJS.WriteStream) : undefined;
    live?.typeAhead("› typed ahead");
    const renderer = new TurnRenderer(out, colored, live);
    renderer.handle({ type: "blockStart", index: 0, block: { type: "text", text: "" } });
    const delta: AgentEvent = { type: "delta", index: 0, text: "" };
    for (const piece of text) {
      delta.text = piece;
      renderer.handle(delta);
    }
    renderer.handle({ type: "blockStop", index: 0 });
    renderer.abandon();
    live?.close();
  };
  const time = (run: () => void) => {
    const cpu = process.cpuUsage();
    const wall = performance.now();
    run();
    const used = process.cpuUsage(cpu);
    return { cpu: (used.user + used.system) / 1000, wall: performance.now() - wall };
  };
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

  plain(sinks.tty)();
  rendered(sinks.tty)(); // warm-up: JIT, Bun.markdown
  const runs = { ttyPlain: [] as number[], ttyRendered: [] as number[], ttyWall: [] as number[], ttyRows: [] as number[], nullPlain: [] as number[], nullRendered: [] as number[], whole: [] as number[], wordPlain: [] as number[], wordRendered: [] as number[] };
  for (let i = 0; i < RUNS; i++) {
    // Side by side: each run measures every variant once, so load on the machine hits them alike.
    runs.ttyPlain.push(time(plain(sinks.tty)).cpu);
    const r = time(rendered(sinks.tty));
    runs.ttyRendered.push(r.cpu);
    runs.ttyWall.push(r.wall);
    runs.ttyRows.push(time(rendered(sinks.tty, true)).cpu);
    runs.nullPlain.push(time(plain(sinks.devnull)).cpu);
    runs.nullRendered.push(time(rendered(sinks.devnull)).cpu);
    runs.whole.push(time(() => writeSync(devnull, renderAnswer(answer, COLUMNS))).wall);
    runs.wordPlain.push(time(plain(sinks.tty, [LONG_WORD])).cpu);
    runs.wordRendered.push(time(rendered(sinks.tty, true, [LONG_WORD])).cpu);
  }
  closeSync(devnull);
  const results: Results = {
    deltas: pieces.length,
    characters: answer.length,
    tty: { plain: median(runs.ttyPlain), rendered: median(runs.ttyRendered), renderedWall: median(runs.ttyWall), withRows: median(runs.ttyRows) },
    devnull: { plain: median(runs.nullPlain), rendered: median(runs.nullRendered) },
    whole: median(runs.whole),
    longWord: { plain: median(runs.wordPlain), rendered: median(runs.wordRendered) },
  };
  writeFileSync(file, JSON.stringify(results));
}
