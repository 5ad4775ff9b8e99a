// The session picker's first screen over 10,000 sessions of one directory,
// through the compiled binary on a pseudo-terminal (util-linux `script`): the
// time from spawning `awl sessions` to the first frame of the picker on its
// output, beside `awl sessions --plain` over the same sessions (which lists
// them all), and beside the floor: `awl --version` through the same `script`
// and pty, which is what starting costs before awl does anything. Bar: first
// screen <= 100 ms after start. `bun run bench picker`.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { encodeCwd, sessionFileName } from "../../src/session";
import { writeSession } from "./session-data";

const SESSIONS = 10_000;
const BYTES = 8 << 10;
const AWL = join(import.meta.dir, "../../dist/awl");

const root = mkdtempSync(join(tmpdir(), "awl-picker-bench-"));
try {
  const cwd = join(root, "project");
  mkdirSync(cwd);
  const dir = join(root, "sessions", encodeCwd(cwd));
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const started = performance.now();
  for (let i = 0; i < SESSIONS; i++) writeSession(join(dir, sessionFileName(new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(), Bun.randomUUIDv7())), cwd, BYTES);
  console.log(`generated ${SESSIONS} sessions of ~${BYTES >> 10} KB in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: root, AWL_SESSION_DIR: join(root, "sessions"), TERM: "xterm-256color", ANTHROPIC_API_KEY: "bench" };

  const plain = () => {
    const t = performance.now();
    const run = Bun.spawnSync([AWL, "sessions", "--plain"], { cwd, env, stdout: "pipe", stderr: "pipe" });
    const lines = run.stdout.toString().trim().split("\n").length;
    if (run.exitCode !== 0 || lines !== SESSIONS) throw new Error(`awl sessions --plain: exit ${run.exitCode}, ${lines} lines: ${run.stderr}`);
    return performance.now() - t;
  };
  /** Milliseconds from spawning `awl <command>` on a 120x40 pty to `shown(output)`. */
  const onPty = async (command: string, shown: (out: string) => boolean) => {
    const t = performance.now();
    // A terminal of 0x0 would wrap every character: give it a size first.
    const child = Bun.spawn(["script", "-qfec", `stty cols 120 rows 40; ${AWL} ${command}`, "/dev/null"], { cwd, env, stdin: "pipe", stdout: "pipe", stderr: "pipe" });
    const limit = setTimeout(() => child.kill(), 20_000); // a screen that never shows fails below, it does not hang the bench
    let out = "";
    const decoder = new TextDecoder();
    for await (const chunk of child.stdout) {
      out += decoder.decode(chunk, { stream: true });
      if (shown(out)) break;
    }
    const ms = performance.now() - t;
    clearTimeout(limit);
    child.kill();
    await child.exited;
    if (!shown(out)) throw new Error(`awl ${command}: not on the screen: ${out.slice(0, 500)}`);
    return ms;
  };
  const floor = () => onPty("--version", (out) => out.includes("awl "));
  const firstScreen = () => onPty("sessions", (out) => out.includes("Search:") && out.includes("msgs"));
  for (const attempt of ["first run", "warm", "warm"]) {
    const screen = await firstScreen();
    console.log(`picker first screen (${attempt}): ${screen.toFixed(0)} ms; floor (awl --version on the same pty): ${(await floor()).toFixed(0)} ms; awl sessions --plain: ${plain().toFixed(0)} ms`);
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
