// Whole-process figures of the compiled binary (issue 5), printed, not
// asserted: `awl --version`, `awl sessions --plain` over 50 and 1,000
// sessions (about 50 KB each, 50 MB together for 1,000), the interactive
// start of a new session (its prompt shows before arktype loads), and `awl -p` up to
// its first request on a new session and on a resumed small one (the path
// that loads the arktype schemas), with the model catalogue cached (the common
// case: read from disk) and with none (one catalogue request first). Each is
// the median of several runs after one warm-up; spawning /bin/true and a
// compiled hello-world (the Bun runtime's own start) the same way are printed
// as the floors.
// The 100 MB `-p --resume` figure is scale.bench.ts's.
//
//   bun run bench startup

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { encodeCwd, sessionFileName } from "../../src/session";
import { AWL, ensureBuilt } from "../e2e/awl";
import { startTestServer, TODAYS_ANTHROPIC } from "../support/server";
import { writeSession } from "./session-data";

const RUNS = 21;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

ensureBuilt();
const server = await startTestServer({ strict: false, models: { anthropic: TODAYS_ANTHROPIC } });
const root = mkdtempSync(join(tmpdir(), "awl-bench-startup-"));
const env = {
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  HOME: root,
  AWL_SESSION_DIR: join(root, "sessions"),
  ANTHROPIC_API_KEY: server.anthropicKey,
  ANTHROPIC_BASE_URL: server.anthropicUrl,
};

/** Median wall time of `argv` run to exit in `cwd`. */
async function wholeProcess(argv: string[], cwd = root): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i <= RUNS; i++) {
    const start = performance.now();
    const child = Bun.spawn(argv, { cwd, env, stdin: "ignore", stdout: "ignore", stderr: "ignore" });
    await child.exited;
    if (child.exitCode !== 0) throw new Error(`${argv.join(" ")} exited ${child.exitCode}`);
    if (i > 0) times.push(performance.now() - start);
  }
  return median(times);
}

/**
 * Median time from spawning `awl -p` to its request's headers at the server
 * (answered with a 400 so it ends there). `runEnv` adds to each run's
 * environment (an empty catalogue cache of its own).
 */
async function toFirstRequest(args: string[], cwd: string, runEnv: () => Record<string, string> = () => ({})): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i <= RUNS; i++) {
    let at = Number.NaN;
    server.onRequest = (request) => void (at = request.headersAt);
    server.reply({ fault: { status: 400, message: "bench: stop here" } });
    const start = performance.now();
    await Bun.spawn([AWL, ...args], { cwd, env: { ...env, ...runEnv() }, stdin: "ignore", stdout: "ignore", stderr: "ignore" }).exited;
    if (Number.isNaN(at)) throw new Error(`awl ${args.join(" ")} sent no request`);
    if (i > 0) times.push(at - start);
  }
  server.onRequest = undefined;
  return median(times);
}

/** A project directory holding `count` sessions of about `bytes` each. */
function project(name: string, count: number, bytes: number): string {
  const cwd = join(root, name);
  const dir = join(env.AWL_SESSION_DIR, encodeCwd(cwd));
  mkdirSync(cwd, { recursive: true });
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  for (let i = 0; i < count; i++) {
    writeSession(join(dir, sessionFileName(new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(), Bun.randomUUIDv7())), cwd, bytes);
  }
  return cwd;
}

/** `console.log("hello")` compiled as awl is (bytecode, minified): what any compiled Bun program pays to start. */
function helloWorld(): string {
  const dir = join(root, "hello");
  mkdirSync(dir);
  const source = join(dir, "hello.ts");
  writeFileSync(source, 'console.log("hello");\n');
  const build = Bun.spawnSync(["bun", "build", source, "--compile", "--bytecode", "--minify", "--outfile", join(dir, "hello")], { stdout: "pipe", stderr: "pipe" });
  if (build.exitCode !== 0) throw new Error(`hello-world build failed: ${build.stderr}`);
  return join(dir, "hello");
}

const row = (label: string, ms: number, target = "") => console.log(`  ${label.padEnd(44)} ${ms.toFixed(1).padStart(7)} ms${target ? `   (target <= ${target})` : ""}`);

try {
  const fifty = project("fifty", 50, 50_000);
  const thousand = project("thousand", 1000, 50_000);
  const small = project("small", 1, 20_000);
  const fresh = project("fresh", 0, 0);
  console.log(`whole-process medians of ${RUNS} runs, dist/awl (${(Bun.file(AWL).size / 1e6).toFixed(1)} MB)`);
  row("spawn /bin/true (the floor)", await wholeProcess(["/bin/true"]));
  row("compiled hello-world (Bun's own floor)", await wholeProcess([helloWorld()]));
  row("awl --version", await wholeProcess([AWL, "--version"]), "10 ms");
  row("awl --help", await wholeProcess([AWL, "--help"]), "10 ms");
  row("awl sessions --plain, 50 sessions", await wholeProcess([AWL, "sessions", "--plain"], fifty), "60 ms");
  row("awl sessions --plain, 1,000 sessions (50 MB)", await wholeProcess([AWL, "sessions", "--plain"], thousand), "300 ms");
  row("awl (interactive, new), start to quit at EOF", await wholeProcess([AWL], fresh));
  row("awl -p, new session, to first request", await toFirstRequest(["-p", "x"], fresh), "60 ms");
  row("awl -p --resume, 20 KB session, to request", await toFirstRequest(["-p", "x", "--resume"], small));
  const emptyCache = () => ({ XDG_CACHE_HOME: mkdtempSync(join(root, "cache-")) });
  row("awl -p, new, empty catalogue cache, to request", await toFirstRequest(["-p", "x"], fresh, emptyCache));
} finally {
  await server.stop();
  rmSync(root, { recursive: true, force: true });
}
