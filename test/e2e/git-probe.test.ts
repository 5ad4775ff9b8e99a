// Issue 22, item 1, through the binary: a repository whose .git/config
// includes a FIFO (git blocks reading it forever). The model's `git status`,
// which would run unasked, is asked about with the reason once awl's own
// probe gives up; Esc and Ctrl+C keep working, whenever they come.
import { beforeEach, describe, expect, test } from "bun:test";
import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { AWL, sessionFiles, useE2eFixture } from "./awl";
import { hasTmux, useTerminal } from "./tmux";

const fx = useE2eFixture();
const term = useTerminal();

beforeEach(() => {
  Bun.spawnSync(["git", "init", "-q", fx.project]);
  Bun.spawnSync(["mkfifo", join(fx.project, ".git", "cfgfifo")]);
  appendFileSync(join(fx.project, ".git", "config"), "[include]\n\tpath = cfgfifo\n");
});

const gitStatus = { blocks: [{ type: "toolUse" as const, name: "bash", input: { command: "git status" } }] };
const text = (t: string) => ({ blocks: [{ type: "text" as const, text: t }] });
const replEnv = () => Object.fromEntries(Object.entries({ ...fx.env, GIT_CONFIG_NOSYSTEM: "1" }).filter(([k]) => k !== "AWL_APPROVE"));

describe("a repository whose configuration includes a FIFO", () => {
  test("-p --approve read-only: git status is refused with the reason, and awl finishes", async () => {
    fx.server.reply(gitStatus, text("Could not look."));
    const run = await fx.run(["--approve", "read-only", "-p", "what changed?"], { env: { AWL_APPROVE: undefined, GIT_CONFIG_NOSYSTEM: "1" } });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Could not look.");
    const log = await Bun.file(sessionFiles(fx.sessions)[0]!).text();
    expect(log).toContain("git did not read the repository's configuration within 1 s");
  });

  /** The REPL, asked what changed: the model answers with `git status`. */
  async function askWhatChanged(): Promise<void> {
    fx.server.reply(gitStatus, text("Fine."));
    term.start([AWL], { cwd: fx.project, env: replEnv(), width: 200 });
    await term.waitFor(/\/help for commands/);
    term.type("what changed?");
    term.keys("Enter");
  }

  /** After `key`: the turn ends interrupted, and the next prompt is answered. */
  async function interruptedAndGoesOn(key: string): Promise<void> {
    term.keys(key);
    await term.waitFor(/Interrupted\./);
    term.type("never mind");
    term.keys("Enter");
    await term.waitFor(/Fine\./);
    term.keys("C-d");
    await term.waitFor(/\[exited 0\]/);
  }

  test.skipIf(!hasTmux)("REPL: git status is asked about, saying why; Esc at the question stops the turn and the REPL goes on", async () => {
    await askWhatChanged();
    const screen = await term.waitFor(/Run it\?/);
    expect(screen).toContain("asked because git did not read the repository's configuration within 1 s");
    await interruptedAndGoesOn("Escape");
  });

  test.skipIf(!hasTmux)("REPL: Ctrl+C as soon as the model asks for git status stops the turn, whenever it lands", async () => {
    await askWhatChanged();
    while (fx.server.requests.length === 0) await Bun.sleep(10);
    await interruptedAndGoesOn("C-c");
  });
});
