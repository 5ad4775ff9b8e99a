// An uncaught error restores the terminal (issue 11, item 5) and is one line,
// never a stack trace. No input or timing through the binary raises one (that
// is the point), so awl's own guard and prompt run from source in a real
// terminal (tmux), with an error thrown where nothing of awl's catches it.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { hasTmux, ProbedTerminal } from "../../e2e/terminal-probe";

const repo = join(import.meta.dir, "..", "..", "..");
const demo = join(import.meta.dir, "fixtures", "crash-demo.ts");

let term: ProbedTerminal;
beforeEach(() => {
  term = new ProbedTerminal();
});
afterEach(() => term.close());

describe.skipIf(!hasTmux)("an uncaught error", () => {
  for (const kind of ["exception", "rejection"]) {
    test(`(${kind}) at the prompt: one line, exit 1, the terminal cooked and without bracketed paste`, async () => {
      term.start([process.execPath, "run", demo, kind], { cwd: repo, env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" } });
      const after = await term.aftermath();
      expect(after).toEqual({ exit: 1, modes: ["isig", "icanon", "echo"], raw: false, bracketedPaste: false });
      const screen = term.screen();
      const said = screen.slice(0, screen.indexOf("[exited")).trim().split("\n").filter(Boolean);
      expect(said.at(-1)).toMatch(/^awl: internal error: (a timer threw|a promise nobody awaited failed) \(please report this with the command you ran\)$/);
      expect(screen).not.toMatch(/\bat .*:\d+:\d+|^\s*\d+ \|/m); // no stack trace, no source excerpt
    });
  }
});
