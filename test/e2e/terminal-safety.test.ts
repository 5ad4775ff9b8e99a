// Issue 11, item 4, through the compiled binary in a real terminal (tmux): a
// model that answers with an OSC 0 title sequence and a tool that prints
// `\033[2J` neither set the pane's title nor clear its screen, live, on
// `--resume`, and under `-p` on a terminal; `-p` into a pipe still writes the
// answer byte for byte. And the bar's fuzz, replayed into a tmux pane: the
// bytes awl's renderers wrote for 10,000 hostile strings leave the pane's
// title and modes as they were and its buffer holding exactly the text.
//
//   AWL_TERMINAL_FUZZ=50000 bun test test/e2e/terminal-safety.test.ts   (more strings replayed; AWL_TERMINAL_FUZZ_SEED another seed)
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { AWL, e2eFixture, sessionFiles } from "./awl";
import { hasTmux, Terminal } from "./tmux";
import { colored, controlsIn, hostileText, renderEverywhere, unstyled } from "../support/terminal-text";
import { prng } from "../support/prng";

const ESC_IN_COMMENT = "#\x1b]0;summary-title\x07"; // raw bytes in the tool's input: its one-line summary
const COMMAND = `printf '\\033[2J\\033]0;tool-title\\007'; echo tool-ran; exit 3 ${ESC_IN_COMMENT}`;
const MODEL_TEXT = "Done.\x1b]0;model-title\x07 Screen kept.\x1b[2J\x1b[?1049h";

const SHOWN = {
  answer: "Done.␛]0;model-title␇ Screen kept.␛[2J␛[?1049h",
  tool: `● bash printf '\\033[2J\\033]0;tool-title\\007'; echo tool-ran; exit 3 #␛]0;summary-title␇`,
  toolOutput: "⎿ ␛[2J␛]0;tool-title␇tool-ran",
};

let fx: Awaited<ReturnType<typeof e2eFixture>>;
let terms: Terminal[] = [];
beforeEach(async () => {
  fx = await e2eFixture();
});
afterEach(async () => {
  for (const t of terms) t.close();
  terms = [];
  await fx.cleanup();
});

function tmux(socket: string, ...args: string[]): string {
  const result = Bun.spawnSync(["tmux", "-L", socket, ...args], { stdout: "pipe", stderr: "pipe" });
  if (result.exitCode !== 0) throw new Error(`tmux ${args[0]} failed: ${result.stderr.toString()}`);
  return result.stdout.toString();
}

/** What an escape sequence could have changed in a pane: its title and its modes. */
const STATE = "title=#{pane_title} alternate=#{alternate_on} cursor=#{cursor_flag} insert=#{insert_flag} keypad=#{keypad_flag},#{keypad_cursor_flag} mouse=#{mouse_any_flag} origin=#{origin_flag} wrap=#{wrap_flag}";
const paneState = (socket: string, target = "") => tmux(socket, "display", "-p", ...(target ? ["-t", target] : []), STATE).trim();
/** The screen as it is now, without the scrollback (which a clear pushes the old screen into). */
const visibleScreen = (t: Terminal) => tmux(t.socket, "capture-pane", "-p");

function open(command: string[]): { term: Terminal; state: string } {
  const term = new Terminal();
  terms.push(term);
  term.start(command, { cwd: fx.project, env: fx.env });
  return { term, state: paneState(term.socket) }; // before awl has written anything that could change it
}

const replies = () =>
  fx.server.reply({ blocks: [{ type: "toolUse", name: "bash", input: { command: COMMAND } }] }, { blocks: [{ type: "text", text: MODEL_TEXT }], chunk: 4 });

describe.skipIf(!hasTmux)("untrusted text never drives the terminal (compiled binary, tmux)", () => {
  test("REPL: the model's OSC 0 and the tool's clear screen are shown, not run, live and on --resume; the log keeps them", async () => {
    replies();
    const live = open([AWL]);
    await live.term.waitFor(/\/help for commands/);
    live.term.type("go");
    live.term.keys("Enter");
    await live.term.waitFor(/Screen kept/);
    await live.term.waitFor(/↑ .* in[^·]* · ↓ .* out/);
    let screen = visibleScreen(live.term);
    expect(paneState(live.term.socket)).toBe(live.state); // title and modes untouched
    expect(screen).toContain("/help for commands"); // nothing cleared the screen
    expect(screen).toContain(SHOWN.tool);
    expect(screen).toContain(SHOWN.toolOutput);
    expect(screen).toContain(SHOWN.answer);
    live.term.keys("C-d");
    await live.term.waitFor(/\[exited 0\]/);

    // The session file holds the original bytes: only the display changed.
    const log = (await Bun.file(sessionFiles(fx.sessions)[0]!).text()).trim().split("\n").map((l) => JSON.parse(l));
    const texts = log.flatMap((l) => l.message?.content ?? []);
    expect(texts).toContainEqual(expect.objectContaining({ type: "text", text: MODEL_TEXT }));
    expect(texts).toContainEqual(expect.objectContaining({ type: "toolResult", content: "\x1b[2J\x1b]0;tool-title\x07tool-ran\nexit code: 3", isError: true }));

    const resumed = open([AWL, "--resume"]);
    screen = await resumed.term.waitFor(/\/help for commands/);
    await Bun.sleep(200);
    screen = visibleScreen(resumed.term);
    expect(paneState(resumed.term.socket)).toBe(resumed.state);
    expect(screen).toContain("› go"); // the transcript's first line is still on the screen
    expect(screen).toContain(SHOWN.tool);
    expect(screen).toContain(SHOWN.toolOutput); // as it was shown live (issue 12, item 9)
    expect(screen).toContain(SHOWN.answer);
    resumed.term.keys("C-d");
    await resumed.term.waitFor(/\[exited 0\]/);
  });

  test("-p on a terminal shows the answer and the activity safe; into a pipe the answer is written byte for byte", async () => {
    replies();
    const shown = open([AWL, "-p", "go"]);
    const screen = await shown.term.waitFor(/\[exited 1\]|\[exited 0\]/);
    expect(screen).toContain("[exited 0]");
    expect(paneState(shown.term.socket)).toBe(shown.state);
    expect(screen).toContain(SHOWN.answer);
    expect(screen).toContain(`● bash printf '\\033[2J\\033]0;tool-title\\007'; echo tool-ran; exit 3 #␛]0;summary-title␇`);
    expect(screen).toContain("⎿ ␛[2J␛]0;tool-title␇tool-ran exit code: 3");

    replies();
    const piped = await fx.run(["-p", "go"]);
    expect(piped.code).toBe(0);
    expect(piped.stdout).toBe(`${MODEL_TEXT}\n`); // scripts get the exact text
    expect(piped.stderr).toContain("#␛]0;summary-title␇"); // activity is for a person, even in a file
    expect(controlsIn(piped.stderr)).toBe(0);
  });
});

const REPLAYED = Number(process.env.AWL_TERMINAL_FUZZ ?? 10_000);
const SEED = Number(process.env.AWL_TERMINAL_FUZZ_SEED ?? 0x5eed);

describe.skipIf(!hasTmux)("the bar, in a real terminal", () => {
  test(`the bytes awl renders for ${REPLAYED.toLocaleString("en-US")} fuzzed strings, replayed into a tmux pane: title, modes and text as they should be`, async () => {
    const r = prng(SEED);
    let bytes = "";
    let controls = 0;
    for (let i = 0; i < REPLAYED; i++) {
      const { text } = hostileText(r);
      controls += controlsIn(text);
      const { live, transcript, print } = renderEverywhere(text, r, colored);
      bytes += `${live}${transcript}\n${print}`;
    }
    const file = join(fx.root, "rendered.txt");
    writeFileSync(file, bytes);
    const expected = unstyled(bytes).split("\n");

    const socket = `awl-fuzz-${process.pid}`;
    try {
      const width = 2000; // nothing wraps: the buffer's lines are the written lines
      tmux(socket, "-f", "/dev/null", "start-server", ";", "set", "-g", "history-limit", String(expected.length + 100), ";",
        "new-session", "-d", "-s", "pristine", "-x", String(width), "-y", "50", "sleep 120", ";",
        "new-session", "-d", "-s", "fuzz", "-x", String(width), "-y", "50", `cat ${file}; printf '[replayed]'; sleep 120`);
      const deadline = Date.now() + 50_000;
      while (!tmux(socket, "capture-pane", "-p", "-t", "fuzz").includes("[replayed]")) {
        if (Date.now() > deadline) throw new Error("the pane never finished the replay");
        await Bun.sleep(100);
      }
      expect(paneState(socket, "fuzz")).toBe(paneState(socket, "pristine"));
      const buffer = tmux(socket, "capture-pane", "-p", "-J", "-S", "-", "-E", "-", "-t", "fuzz").replace(/\n+$/, "").split("\n");
      // tmux 3.3 keeps emoji sequences (flags, ZWJ families) in cells of its own making and hands some back as U+FFFD:
      // those, and the blanks its cells and tabs leave, are not what is compared.
      const normal = (line: string) => line.replace(/[\s\u200d\ufe0f\ufffd]|\p{Extended_Pictographic}|\p{Regional_Indicator}/gu, "");
      let differing = 0;
      const first: string[] = [];
      for (const [i, line] of expected.entries()) {
        const got = i === expected.length - 1 ? buffer[i]?.replace("[replayed]", "") : buffer[i];
        if (normal(got ?? "") === normal(line)) continue;
        differing++;
        if (first.length < 3) first.push(`line ${i + 1}: expected ${JSON.stringify(line)}\n  pane had ${JSON.stringify(got)}`);
      }
      console.log(`terminal replay (seed ${SEED}): ${REPLAYED.toLocaleString("en-US")} strings holding ${controls.toLocaleString("en-US")} control characters, rendered as ${(bytes.length / 1e6).toFixed(1)} M characters, ${expected.length.toLocaleString("en-US")} lines into tmux: title and modes unchanged, ${differing} lines differ from the text`);
      expect(first).toEqual([]);
      expect(buffer.length).toBe(expected.length);
    } finally {
      Bun.spawnSync(["tmux", "-L", socket, "kill-server"], { stdout: "ignore", stderr: "ignore" });
    }
  });
});
