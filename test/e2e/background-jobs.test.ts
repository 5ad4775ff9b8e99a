// Issue 22, item 3, through the binary: a job the model's command leaves in
// the background (`tail -f x >/dev/null &`) is never left running once awl
// exits; in the REPL the command is asked about (it is not read-only), and
// once approved it runs on until Ctrl+D. What the person starts later under a
// server such a command launched (a tmux window, a build daemon's next build)
// is theirs: awl's exit leaves it. Processes are found in /proc by the marker
// in their command line.
import { afterEach, describe, expect, test } from "bun:test";
import { appendFileSync } from "node:fs";
import { AWL, useE2eFixture } from "./awl";
import { goneSoon } from "../tools/helpers";
import { processesWith } from "../support/processes";
import { hasTmux, useTerminal } from "./tmux";

const fx = useE2eFixture();
const term = useTerminal();
const markers: string[] = [];
afterEach(() => {
  for (const marker of markers.splice(0)) for (const pid of processesWith(marker)) process.kill(pid, "SIGKILL");
});

async function followed(): Promise<string> {
  const marker = `awl-job-${crypto.randomUUID()}`;
  markers.push(marker);
  await Bun.write(`${fx.project}/${marker}`, "");
  return marker;
}

async function allGone(marker: string): Promise<boolean> {
  for (const pid of processesWith(marker)) if (!(await goneSoon(pid))) return false;
  return true;
}

const bash = (command: string) => ({ type: "toolUse" as const, name: "bash", input: { command } });

/** The REPL in ask: the model runs `command`, the person approves it, the model answers `answer`. */
async function approvedInRepl(command: string, answer: string, extraEnv: Record<string, string> = {}): Promise<void> {
  fx.server.reply({ blocks: [bash(command)] }, { blocks: [{ type: "text", text: answer }] });
  const env = { ...Object.fromEntries(Object.entries(fx.env).filter(([k]) => k !== "AWL_APPROVE")), ...extraEnv };
  term.start([AWL], { cwd: fx.project, env, width: 160 });
  await term.waitFor(/\/help for commands/);
  term.type("go on");
  term.keys("Enter");
  await term.waitFor(/Run it\?/);
  term.type("y");
  await term.waitFor(new RegExp(answer.replaceAll(".", "\\.")));
}

describe.skipIf(process.platform !== "linux")("background jobs and awl's exit", () => {
  test("-p (auto): the job runs past the call, and is ended when awl exits", async () => {
    const marker = await followed();
    fx.server.reply({ blocks: [bash(`tail -f ${marker} >/dev/null & sleep 0.2; echo started`)] }, { blocks: [{ type: "text", text: "Following it." }] });
    const run = await fx.run(["-p", "follow the log"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Following it.");
    expect(await allGone(marker)).toBe(true);
  });

  test.skipIf(!hasTmux)("REPL: the command is asked about; approved, the job runs until Ctrl+D ends awl and it", async () => {
    const marker = await followed();
    await approvedInRepl(`tail -f ${marker} >/dev/null &`, "Following it.");
    expect(processesWith(marker).length).toBeGreaterThan(0);
    term.keys("C-d");
    await term.waitFor(/\[exited 0\]/);
    expect(await allGone(marker)).toBe(true);
  });

  test.skipIf(!hasTmux)("REPL: a server the approved command launched ends with awl; what the person started under it later does not", async () => {
    const server = await followed();
    const later = await followed();
    // The server starts a job in a session of its own whenever it is asked (as tmux opens a window), carrying awl's mark.
    const script = `exec 3<>poke; while read name <&3; do setsid tail -f "$name" >/dev/null 2>&1 & done`;
    // Outside the sandbox: inside it, everything the command started, later ones included, ends with awl (docs/sandbox.md).
    await approvedInRepl(`mkfifo poke && setsid sh -c '${script}' ${server} >/dev/null 2>&1 &`, "Serving.", { AWL_SANDBOX: "off" });
    // The person, after the call: the server starts one more.
    appendFileSync(`${fx.project}/poke`, `${later}\n`);
    while (processesWith(later).length === 0) await Bun.sleep(20);
    term.keys("C-d");
    await term.waitFor(/\[exited 0\]/);
    expect(await allGone(server)).toBe(true);
    expect(processesWith(later).length).toBe(1);
  });
});
