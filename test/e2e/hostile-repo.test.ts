// Repositories that try to run their own programs through awl, driven
// through the binary in each approval mode: a submodule whose own
// configuration (.git/modules/<n>/config) defines a clean filter, a partial
// clone whose promisor remote names an `uploadpack` program, a configuration
// that includes a FIFO. Every git command awl runs on its own (the project's
// identity, the file tracking, the filter probe) must run none of them, see no
// provider key, and never hold awl up. A `git` first on PATH writes down the
// environment of every git that runs, then runs the real one. `ask` is the
// REPL's (in tmux: -p has nobody to ask), the other two modes are `-p`'s.
import { beforeEach, describe, expect, test } from "bun:test";
import { appendFileSync, chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AWL, useE2eFixture } from "./awl";
import { hasTmux, useTerminal } from "./tmux";

const fx = useE2eFixture();
const term = useTerminal();
const MODES = ["ask", "read-only", "auto"] as const;
type Mode = (typeof MODES)[number];

let marks: string;
let env: Record<string, string | undefined>;

beforeEach(() => {
  marks = join(fx.root, "marks");
  const bin = join(fx.root, "bin");
  mkdirSync(marks);
  mkdirSync(bin);
  const realGit = Bun.which("git")!;
  writeFileSync(join(bin, "git"), `#!/bin/sh\nenv > "${marks}/../git-env.$$"\nexec "${realGit}" "$@"\n`);
  chmodSync(join(bin, "git"), 0o755);
  env = { AWL_APPROVE: undefined, GIT_CONFIG_NOSYSTEM: "1", PATH: `${bin}:${fx.env.PATH}` };
});

/** Runs git to build a fixture (not through the logging `git`), failing loudly. */
function git(cwd: string, ...args: string[]): void {
  const run = Bun.spawnSync(["git", "-c", "user.email=t@example.com", "-c", "user.name=t", "-c", "protocol.file.allow=always", ...args], { cwd, env: { PATH: process.env.PATH, HOME: fx.home, GIT_CONFIG_NOSYSTEM: "1" } });
  if (run.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${run.stderr}`);
}

/** A program that leaves a marker, and its environment, in `marks`; it then passes its input on, as a filter would. */
function planted(name: string): string {
  const path = join(fx.root, `${name}.sh`);
  writeFileSync(path, `#!/bin/sh\ntouch "${marks}/${name}"\nenv > "${marks}/${name}.env"\ncat\n`);
  chmodSync(path, 0o755);
  return path;
}

/** No planted program ran, and no git awl ran (or anything else that ran git) saw a provider key. */
function nothingRan(): void {
  expect(readdirSync(marks)).toEqual([]);
  const seen = readdirSync(fx.root).filter((f) => f.startsWith("git-env."));
  expect(seen.length).toBeGreaterThan(0); // awl did ask git something
  for (const f of seen) {
    const dump = readFileSync(join(fx.root, f), "utf8");
    expect(dump).not.toContain(fx.server.anthropicKey);
    expect(dump).not.toContain(fx.server.openaiKey);
  }
}

/** Until `n` gits have started (the logging `git` writes down each one's environment as it starts). */
async function gitsStarted(n: number): Promise<void> {
  while (readdirSync(fx.root).filter((f) => f.startsWith("git-env.")).length < n) await Bun.sleep(50);
}

const bash = (command: string) => ({ blocks: [{ type: "toolUse" as const, name: "bash", input: { command } }] });
const text = (t: string) => ({ blocks: [{ type: "text" as const, text: t }] });
/** What the model runs in each mode: where it is read-only, `git status` (in auto the model's own git is the person's to allow); in auto, a command that may change files, which the tracking wraps. */
const commandFor = (mode: Mode) => (mode === "auto" ? "touch made.txt" : "git status");

/** The REPL, in ask, sent the prompt `look`. */
async function startLooking(): Promise<void> {
  term.start([AWL], { cwd: fx.project, env: Object.fromEntries(Object.entries({ ...fx.env, ...env }).filter((e): e is [string, string] => e[1] !== undefined)), width: 200, height: 50 });
  await term.waitFor(/\/help for commands/);
  term.type("look");
  term.keys("Enter");
}

/**
 * The prompt `look` in `mode`, the model's replies scripted; what awl wrote
 * (the REPL's screen in ask, where `answer` is typed at each question; -p's
 * stderr otherwise). The REPL is quit once `Done.` shows.
 */
async function look(mode: Mode, answer = "y"): Promise<string> {
  if (mode !== "ask") {
    const run = await fx.run(["--approve", mode, "-p", "look"], { env });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Done.");
    return run.stderr;
  }
  await startLooking();
  for (;;) {
    const screen = await term.waitFor(/Done\.|Run it\?/);
    if (screen.includes("Done.")) break;
    term.type(answer);
    while (term.screen().includes("Run it?")) await Bun.sleep(50);
  }
  const screen = term.screen();
  term.keys("C-d");
  await term.waitFor(/\[exited 0\]/);
  return screen;
}

describe("a submodule whose own configuration defines a clean filter", () => {
  beforeEach(() => {
    const sub = join(fx.root, "sub");
    mkdirSync(sub);
    writeFileSync(join(sub, "f.txt"), "x\n");
    writeFileSync(join(sub, ".gitattributes"), "*.txt filter=evil\n");
    git(sub, "init", "-q");
    git(sub, "add", ".");
    git(sub, "commit", "-qm", "sub");
    git(fx.project, "init", "-q");
    git(fx.project, "add", ".");
    git(fx.project, "commit", "-qm", "top");
    git(fx.project, "submodule", "add", "-q", sub, "sub");
    git(fx.project, "commit", "-qm", "with sub");
    appendFileSync(join(fx.project, ".git", "modules", "sub", "config"), `[filter "evil"]\n\tclean = ${planted("clean")}\n`);
    // Its stat no longer matches the submodule's index: anything that looks inside hashes it, through the filter.
    utimesSync(join(fx.project, "sub", "f.txt"), new Date(2001, 1, 1), new Date(2001, 1, 1));
  });

  for (const mode of MODES) {
    test.skipIf(mode === "ask" && !hasTmux)(`${mode}: the filter never runs`, async () => {
      fx.server.reply(bash(commandFor(mode)), text("Done."));
      await look(mode);
      nothingRan();
    });
  }
});

describe("a partial clone whose promisor remote names an uploadpack program", () => {
  beforeEach(() => {
    git(fx.project, "init", "-q");
    git(fx.project, "add", ".");
    git(fx.project, "commit", "-qm", "one");
    writeFileSync(join(fx.project, "b.txt"), "b\n");
    git(fx.project, "add", ".");
    git(fx.project, "commit", "-qm", "two");
    const root = Bun.spawnSync(["git", "rev-list", "--max-parents=0", "HEAD"], { cwd: fx.project }).stdout.toString().trim();
    const config = join(fx.project, ".git", "config");
    appendFileSync(config, `[extensions]\n\tpartialClone = origin\n[remote "origin"]\n\turl = ${fx.root}\n\tpromisor = true\n\tuploadpack = ${planted("uploadpack")}\n`);
    git(fx.project, "config", "core.repositoryformatversion", "1");
    // Its root commit is "on the remote": whoever walks the history to it fetches it.
    rmSync(join(fx.project, ".git", "objects", root.slice(0, 2), root.slice(2)));
  });

  for (const mode of MODES) {
    test.skipIf(mode === "ask" && !hasTmux)(`${mode}: neither a prompt nor a command runs it`, async () => {
      fx.server.reply(bash(commandFor(mode)), text("Done."));
      await look(mode);
      nothingRan();
    });
  }

  test("awl sessions does not run it", async () => {
    const run = await fx.run(["sessions"], { env });
    expect(run.code).toBe(0);
    nothingRan();
  });
});

describe("a configuration that includes a FIFO", () => {
  beforeEach(() => {
    git(fx.project, "init", "-q");
    Bun.spawnSync(["mkfifo", join(fx.project, ".git", "cfgfifo")]);
    appendFileSync(join(fx.project, ".git", "config"), "[include]\n\tpath = cfgfifo\n");
  });

  for (const mode of MODES) {
    test.skipIf(mode === "ask" && !hasTmux)(`${mode}: awl goes on, and says once that git did not answer in time`, async () => {
      // In read-only git status is refused (its probe gave up) and so is touch; in ask both are approved (a git approved would wait on the FIFO: the person's to stop).
      fx.server.reply(bash(mode === "read-only" ? "git status" : "touch made.txt"), bash("touch later.txt"), text("Done."));
      const shown = await look(mode);
      if (mode === "read-only") return;
      expect(existsSync(join(fx.project, "later.txt"))).toBe(true);
      expect(shown.replaceAll("\n", " ").match(/not tracked when git does not answer in time/g)?.length).toBe(1);
    });
  }

  test.skipIf(!hasTmux)("ask: Esc stops awl's git at once, however long it may take (the project's identity, the tracking, the filter probe), and the REPL goes on", async () => {
    fx.server.reply(bash("touch made.txt"), bash("git status"), text("Done."));
    env.AWL_GIT_TIMEOUT_MS = "600000";
    await startLooking();
    // The new session's first line waits on the project's identity: git reads the FIFO.
    await gitsStarted(1);
    term.keys("Escape");
    await term.waitFor(/Interrupted\./);
    term.type("again");
    term.keys("Enter");
    await term.waitFor(/Run it\?/);
    term.type("y");
    // The command waits on the tracking's first question.
    await gitsStarted(2);
    term.keys("Escape");
    await term.waitFor(/Interrupted\.[\s\S]*Interrupted\./);
    expect(existsSync(join(fx.project, "made.txt"))).toBe(false);
    term.type("go on");
    term.keys("Enter");
    // A read-only git waits on the probe for the repository's filters.
    await gitsStarted(3);
    term.keys("Escape");
    await term.waitFor(/Interrupted\.[\s\S]*Interrupted\.[\s\S]*Interrupted\./);
    term.type("end");
    term.keys("Enter");
    await term.waitFor(/Done\./);
    term.keys("C-d");
    await term.waitFor(/\[exited 0\]/);
  });
});
