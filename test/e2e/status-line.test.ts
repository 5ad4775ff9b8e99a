// Issue 12, items 3 and 9, through the compiled binary in a real terminal
// (tmux), as a person sees it: the status line while the model streams a
// large tool call, a running command's output live under its line, the status
// line gone when the turn ends, a 40-column window and a resize during a
// stream; and a resumed session whose transcript shows its turns as they were
// shown live. The pane's whole history (`capture-pane -S -`) is read to count
// copies: the rows under the output are never left in it.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { AWL, useE2eFixture } from "./awl";
import { hasTmux, useTerminal, waitForScreen } from "./tmux";

const fx = useE2eFixture();
const term = useTerminal();

const BANNER = /\/help for commands/;
const STATUS = /esc to interrupt\)/;
const USAGE = /↑ .* in (\(.*\) )?· ↓ .* out · ctx \d+% of 1\.0M/;
const count = (haystack: string, needle: string | RegExp) => (typeof needle === "string" ? haystack.split(needle).length - 1 : (haystack.match(new RegExp(needle, "g")) ?? []).length);

/** Everything the pane holds, scrollback included; `joined` undoes the terminal's own wrapping (tmux -J). */
function history(joined = false): string {
  const args = ["-L", term.socket, "capture-pane", "-p", "-S", "-", ...(joined ? ["-J"] : [])];
  return Bun.spawnSync(["tmux", ...args], { stdout: "pipe" }).stdout.toString();
}

async function start(width = 100, height = 30, args: string[] = []): Promise<void> {
  term.start([AWL, ...args], { cwd: fx.project, env: fx.env, width, height });
  const deadline = Date.now() + 15_000;
  while (!BANNER.test(history(true))) {
    if (Date.now() > deadline) throw new Error(`no banner:\n${history()}`);
    await Bun.sleep(50);
  }
}

function ask(prompt: string): void {
  term.type(prompt);
  term.keys("Enter");
}

/** Screens seen until `until` matches, one every `everyMs`. */
async function watch(until: RegExp, everyMs = 100, limitMs = 20_000): Promise<string[]> {
  const seen: string[] = [];
  const deadline = Date.now() + limitMs;
  for (;;) {
    const screen = term.screen();
    seen.push(screen);
    if (until.test(screen)) return seen;
    if (Date.now() > deadline) throw new Error(`screen never matched ${until}:\n${screen}`);
    await Bun.sleep(everyMs);
  }
}

describe.skipIf(!hasTmux)("the status line in a real terminal", () => {
  test("while the model streams a large write: the call's line from the start with its size growing, the status line under it; announced once when it runs", async () => {
    const content = Array.from({ length: 1500 }, (_, i) => `export const value${i} = ${i}; // line ${i} of a large generated file`).join("\n");
    fx.server.reply(
      { blocks: [{ type: "toolUse", name: "write", input: { path: "src/big.ts", content } }], chunk: 400, delayMs: 15 },
      { blocks: [{ type: "text", text: "Wrote it." }] },
    );
    await start();
    ask("generate the file");
    const screens = await watch(USAGE);
    const streaming = screens.filter((s) => /● write src\/big\.ts [\d.]+k?B/.test(s) || /● write src\/big\.ts \d+ bytes/.test(s));
    expect(streaming.length).toBeGreaterThan(3);
    // The line and the status line under it while it streams (a capture can fall between the rows' erase and redraw, so not on every one).
    const withStatus = streaming.filter((screen) => /● write src\/big\.ts (\d+ bytes|[\d.]+k?B)\n. Writing the write call… \(\d+s · ↓ [\d.]+k? tokens · esc to interrupt\)/.test(screen));
    expect(withStatus.length).toBeGreaterThan(2);
    const sizes = new Set(streaming.map((s) => /● write src\/big\.ts (\S+ ?\S*)\n/.exec(s)![1]));
    expect(sizes.size).toBeGreaterThan(2); // it grew before our eyes
    // Once the turn is over: the call announced once, the status rows nowhere in the scrollback.
    const all = history();
    expect(count(all, "● write src/big.ts")).toBe(1);
    expect(all).toContain(`● write src/big.ts\n  ⎿ created src/big.ts (${content.length} bytes)\n    +export const value0 = 0;`);
    expect(count(all, STATUS)).toBe(0);
    expect(all).not.toMatch(/● write src\/big\.ts (\d+ bytes|[\d.]+k?B)$/m);
    expect(readFileSync(join(fx.project, "src/big.ts"), "utf8")).toBe(content);
  });

  test("a running command shows the tail of its output live, replaced in place; the status line is gone when the turn ends, the preview is the output's end", async () => {
    fx.server.reply(
      { blocks: [{ type: "toolUse", name: "bash", input: { command: "for i in 1 2 3 4 5 6 7 8 9; do echo tick $i; sleep 0.35; done" } }] },
      { blocks: [{ type: "text", text: "It ticked." }] },
    );
    await start();
    ask("tick");
    const screens = await watch(USAGE);
    // While it runs: its last lines under its line, then the status line, with one time on it (the turn's).
    const late = screens.find((s) => /^ {4}tick 7$/m.test(s) && STATUS.test(s));
    expect(late).toMatch(/● bash for i in .*\n {4}tick 4\n {4}tick 5\n {4}tick 6\n {4}tick 7\n. Running bash \(\d+s · ↑ [\d.]+k? ↓ \d+ tokens · esc to interrupt\)/);
    expect(late).not.toMatch(/^ {4}tick 3$/m); // replaced in place: four lines at most
    expect(screens.some((s) => / Running bash \([1-9]s/.test(s))).toBe(true);
    // After it: the result's preview (its last lines, after how many came before), the answer, the usage line, the prompt; no status line.
    const screen = term.screen();
    expect(screen).toMatch(/\n {2}⎿ … 5 earlier lines \(ctrl\+o shows all\)\n {4}tick 6\n {4}tick 7\n {4}tick 8\n {4}tick 9\n {4}exit code: 0\nIt ticked\.\n↑ .*\n›/);
    expect(screen).not.toMatch(STATUS);
    const all = history();
    expect(count(all, STATUS)).toBe(0);
    expect(count(all, "tick 1")).toBe(0); // shown live only
    expect(count(all, "tick 7")).toBe(1); // shown live, then once in the preview
  });

  test("--thinking: a 150-word thought is one line, live and on resume; Ctrl+O prints it and the whole command output, live and after --resume", async () => {
    const thought = Array.from({ length: 150 }, (_, i) => `musing${i}`).join(" ");
    fx.server.reply(
      { blocks: [{ type: "thinking", thinking: thought }, { type: "toolUse", name: "bash", input: { command: "seq 1 40" } }], chunk: 20, delayMs: 30 },
      { blocks: [{ type: "text", text: "Counted." }] },
    );
    await start(100, 40, ["--thinking"]);
    ask("count");
    const screens = await watch(USAGE);
    // While it streams: one row with how long so far, and the status line says Thinking.
    expect(screens.some((s) => /\n∴ Thinking… \d+s\n. Thinking… \(\d+s/.test(s))).toBe(true);
    expect(term.screen()).toMatch(/› count\n∴ Thought for \d+s\n● bash seq 1 40\n {2}⎿ … 36 earlier lines \(ctrl\+o shows all\)\n {4}37\n {4}38\n {4}39\n {4}40\n {4}exit code: 0\nCounted\./);
    expect(history()).not.toContain("musing");
    term.type("half typed");
    term.keys("C-o");
    // The typed text was on the screen before Ctrl+O: wait for what it prints, then the prompt drawn again under it.
    let all = await waitForScreen(() => history(true), /musing149[\s\S]*› half typed\s*$/, 40_000, 50);
    expect(all.replace(/\s+/g, " ")).toContain(thought);
    for (const n of [1, 20, 36]) expect(all).toMatch(new RegExp(`^ {4}${n}$`, "m"));
    term.keys("C-u", "C-d");
    await term.waitFor(/\[exited 0\]/);
    term.close();

    await start(100, 40, ["--resume"]);
    expect(history()).toMatch(/› count\n∴ Thought\n● bash seq 1 40\n/);
    expect(history()).not.toContain("musing");
    term.keys("C-o");
    await term.waitFor(/musing149/);
    all = history(true);
    expect(all.replace(/\s+/g, " ")).toContain(thought);
    expect(all).toMatch(/^ {4}1$/m);
    term.keys("C-d");
    await term.waitFor(/\[exited 0\]/);
  });

  test("a 40-column window: the status line fits; a resize during a stream leaves nothing twice and no status line behind", async () => {
    const paragraphs = Array.from({ length: 14 }, (_, i) => `Paragraph p${i}q has **some** words, enough of them to fill a row or more at either width.`);
    fx.server.reply({ blocks: [{ type: "text", text: paragraphs.join("\n\n") }], chunk: 3, delayMs: 5 });
    await start(40, 20);
    ask("stream");
    const narrow = await watch(/p3q/);
    for (const screen of narrow) for (const row of screen.split("\n")) expect(Bun.stringWidth(row)).toBeLessThanOrEqual(40);
    expect(narrow.at(-1)).toMatch(/\n. Answering… \(\d+s · esc\S*/);
    term.resize(70, 20);
    await watch(/p7q/);
    term.resize(40, 20);
    await watch(USAGE);
    const all = history(true);
    for (let i = 0; i < 14; i++) expect({ i, times: count(all, `p${i}q`) }).toEqual({ i, times: 1 });
    expect(count(all, "Answering…")).toBe(0);
    expect(count(all, "esc")).toBe(0);
  });
});

describe.skipIf(!hasTmux)("a resumed session shows its turns as they were shown live", () => {
  test("an error line, Interrupted., tool lines with their previews, the usage lines", async () => {
    await Bun.write(join(fx.project, "notes.txt"), "first note\nsecond note\n");
    fx.server.reply(
      { blocks: [{ type: "text", text: "Reading." }, { type: "toolUse", name: "read", input: { path: "notes.txt" } }] },
      { blocks: [{ type: "text", text: "Two notes." }] },
      { blocks: [{ type: "text", text: "This answer is cut off by the network." }], fault: { midStream: "drop", afterEvents: 6 } },
      { blocks: [{ type: "text", text: "word ".repeat(80) }], chunk: 5, delayMs: 40 },
    );
    await start(100, 40);
    ask("read the notes");
    await term.waitFor(/Two notes\.\n↑ .*\n›/);
    ask("explain");
    await term.waitFor(/The connection to Anthropic [^›]* failed[^›]*\n(↑ .*\n)?›/); // (a long error line: the terminal wraps it)
    ask("talk");
    await term.waitFor(/word word word/);
    term.keys("Escape");
    await term.waitFor(/Interrupted\.\n(↑ .*\n)?›/);
    term.keys("C-d");
    await term.waitFor(/\[exited 0\]/);
    const livePane = history();
    const live = livePane.slice(livePane.indexOf("› read the notes"), livePane.lastIndexOf("\n›")).split("\n");
    expect(live).toContain("Interrupted.");
    expect(live.some((l) => /^The connection to Anthropic .*/.test(l))).toBe(true);
    expect(live.filter((l) => USAGE.test(l)).length).toBeGreaterThanOrEqual(2);
    expect(live.slice(0, 4)).toEqual(["› read the notes", "Reading.", "● read notes.txt", "  ⎿      1  first note"]);
    term.close();
    await start(100, 40, ["--resume"]);
    const pane = history();
    const transcript = pane.slice(0, pane.indexOf("awl ")).replace(/\n+$/, "").split("\n");
    // The session's cost so far is the live session's; the transcript shows each turn's tokens, as live.
    expect(transcript).toEqual(live.map((l) => l.replace(/ · \$\d+\.\d+ so far$/, "")));
    term.keys("C-d");
    await term.waitFor(/\[exited 0\]/);
  });
});
