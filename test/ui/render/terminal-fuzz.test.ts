// Issue 11, bar: 10,000 fuzzed tool outputs and model texts with random control
// bytes and escape sequences, rendered through awl's real rendering paths (the
// live renderer of the REPL, the transcript shown on resume, `-p`'s activity on
// stderr, the status rows under the REPL's output, what Ctrl+O prints in full), colours on and off: 0 controls from the input reach the written
// bytes, whose only escape sequences are awl's own styling (picocolors, and
// since issue 12 the markdown renderer's SGR and its OSC 8 links to http(s)
// URLs). With colour off nothing written holds an escape at all. The same
// bytes go through a real terminal (tmux) in test/e2e/terminal-safety.test.ts.
//
//   AWL_TERMINAL_FUZZ=100000 bun test test/ui/render/terminal-fuzz.test.ts
//   AWL_TERMINAL_FUZZ_SEED=7 ...
import { expect, test } from "bun:test";
import { renderAnswer } from "../../../src/ui/render/markdown-stream";
import { TurnRenderer } from "../../../src/ui/live/render";
import { safeText } from "../../../src/ui/render/safe-text";
import { wrapText } from "../../../src/ui/render/wrap";
import { colored, controlsIn, hostileText, pieces, plain, renderEverywhere, unstyled } from "../../support/terminal-text";
import { prng } from "../../support/prng";

const STRINGS = Number(process.env.AWL_TERMINAL_FUZZ ?? 10_000);
const SEED = Number(process.env.AWL_TERMINAL_FUZZ_SEED ?? 0x5eed);

test(`${STRINGS.toLocaleString("en-US")} fuzzed model texts and tool outputs: 0 escape sequences reach the terminal`, () => {
  const r = prng(SEED);
  let fragments = 0;
  let controlsInInput = 0;
  let renderings = 0;
  let bytes = 0;
  let reaching = 0;
  let notAwlsStyling = 0;
  let textChanged = 0;
  const failures: string[] = [];
  for (let i = 0; i < STRINGS; i++) {
    const { text: s, fragments: n } = hostileText(r);
    fragments += n;
    controlsInInput += controlsIn(s);
    const state = r() * 2 ** 32; // the same cuts into deltas for both renderings
    const withColour = renderEverywhere(s, prng(state), colored);
    const without = renderEverywhere(s, prng(state), plain);
    for (const path of ["live", "transcript", "print", "status", "folded"] as const) {
      renderings += 2;
      bytes += Buffer.byteLength(withColour[path]) + Buffer.byteLength(without[path]);
      const leaked = controlsIn(without[path]) + controlsIn(unstyled(withColour[path]));
      // An answer is rendered as markdown when colour is on, so only -p's activity is the same text both ways.
      const styledOtherwise = path === "print" ? unstyled(withColour[path]) !== without[path] : /\x1b/.test(unstyled(withColour[path]));
      reaching += leaked;
      if (styledOtherwise) notAwlsStyling++;
      if ((leaked || styledOtherwise) && failures.length < 5) failures.push(`${path}: ${JSON.stringify(s)}\n  -> ${JSON.stringify(withColour[path])}`);
    }
    // A streamed answer is shown whole, cut into deltas anywhere: with colour off it is exactly the safe
    // text wrapped, with colour on (not a terminal: no live view) exactly the whole text rendered.
    const cuts = pieces(r, s);
    for (const [c, expected] of [
      [plain, wrapText(safeText(s), 80)],
      [colored, renderAnswer(s, 80)],
    ] as const) {
      let answer = "";
      const renderer = new TurnRenderer({ write: (w: string) => (answer += w) }, c);
      renderer.handle({ type: "blockStart", index: 0, block: { type: "text", text: "" } });
      for (const piece of cuts) renderer.handle({ type: "delta", index: 0, text: piece });
      renderer.handle({ type: "blockStop", index: 0 });
      if (answer !== (expected && !expected.endsWith("\n") ? `${expected}\n` : expected)) {
        textChanged++;
        if (failures.length < 5) failures.push(`streamed: ${JSON.stringify(cuts)}\n  -> ${JSON.stringify(answer)}\n  expected ${JSON.stringify(expected)}`);
      }
    }
  }
  console.log(
    `terminal fuzz (seed ${SEED}): ${STRINGS.toLocaleString("en-US")} strings, ${fragments.toLocaleString("en-US")} control bytes and sequences mixed in ` +
      `(${controlsInInput.toLocaleString("en-US")} control characters), ${renderings.toLocaleString("en-US")} renderings, ` +
      `${(bytes / 1e6).toFixed(1)} MB written: ${reaching} control characters reached the terminal, ` +
      `${notAwlsStyling} renderings had escape sequences other than awl's styling, ${textChanged} streamed answers differed from the whole answer shown at once`,
  );
  expect(failures).toEqual([]);
  expect({ reaching, notAwlsStyling, textChanged }).toEqual({ reaching: 0, notAwlsStyling: 0, textChanged: 0 });
  expect(controlsInInput).toBeGreaterThan(STRINGS); // the fuzz did put controls in
});
