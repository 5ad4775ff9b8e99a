// Scale figures (issue 6), printed, not asserted: the compiled binary resuming
// a 100 MB (and, with AWL_BENCH_1GB=1, a 1 GB) session up to its first
// request, and `awl sessions --plain` over 10,000 sessions. awl runs in its own
// process against the test server in this one; its peak RSS is VmHWM read from
// /proc at the moment the request arrives (and polled until it exits), set
// against the conversation it rebuilt (the request body it sent).
// `bun run bench scale`.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { encodeCwd, idFromFileName, sessionFileName } from "../../src/session";
import { AWL, ensureBuilt } from "../e2e/awl";
import { startTestServer } from "../support/server";
import { writeSession } from "./session-data";

const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** VmHWM (peak RSS) of a live process in bytes, or undefined once it is gone. */
function vmHwm(pid: number): number | undefined {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

ensureBuilt();
const server = await startTestServer({ strict: false });
const root = mkdtempSync(join(tmpdir(), "awl-bench-scale-"));
const sessions = join(root, "sessions");
const env = {
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  HOME: root,
  AWL_SESSION_DIR: sessions,
  ANTHROPIC_API_KEY: server.anthropicKey,
  ANTHROPIC_BASE_URL: server.anthropicUrl,
  AWL_RETRY_BASE_MS: "5",
};

interface Sample {
  /** Start to the request's headers at the server: awl's own work. */
  toRequestMs: number;
  /** Start to its body read whole by the test server: adds the upload (a large body is serialized while it uploads). */
  toBodyMs: number;
  totalMs: number;
  rssAtRequest: number;
  peakRss: number;
  bodyBytes: number;
  code: number;
  /** Bun.serve refuses bodies over 128 MB with a 413 before the test server sees them (the real API's limit is lower still). */
  refused?: string;
}

/** Runs awl with `args` in `cwd`, answering its first request with a 400 so it ends there. */
async function runToFirstRequest(cwd: string, args: string[]): Promise<Sample> {
  let pid = 0;
  let arrived: { ms: number; bodyMs: number; rss: number; bytes: number } | undefined;
  const start = performance.now();
  server.onRequest = (request) => {
    arrived = { ms: request.headersAt - start, bodyMs: request.bodyAt - start, rss: vmHwm(pid) ?? 0, bytes: Buffer.byteLength(request.rawBody) };
  };
  server.reply({ fault: { status: 400, message: "bench: stop here" } });
  const child = Bun.spawn([AWL, ...args], { cwd, env, stdin: "ignore", stdout: "ignore", stderr: "pipe" });
  pid = child.pid;
  let peak = 0;
  const poll = setInterval(() => (peak = Math.max(peak, vmHwm(pid) ?? 0)), 10);
  const [stderr, code] = await Promise.all([new Response(child.stderr).text(), child.exited]);
  clearInterval(poll);
  server.onRequest = undefined;
  if (!arrived && /\(413\)/.test(stderr)) {
    const ms = performance.now() - start;
    return { toRequestMs: ms, toBodyMs: ms, totalMs: ms, rssAtRequest: peak, peakRss: peak, bodyBytes: Number.NaN, code, refused: stderr.trim() };
  }
  if (!arrived) throw new Error(`awl sent no request (exit ${code}): ${stderr}`);
  return { toRequestMs: arrived.ms, toBodyMs: arrived.bodyMs, totalMs: performance.now() - start, rssAtRequest: arrived.rss, peakRss: Math.max(peak, arrived.rss), bodyBytes: arrived.bytes, code };
}

/** Peak RSS and time of one run to completion. */
async function runPlain(cwd: string, args: string[]): Promise<{ ms: number; peakRss: number; stdout: string }> {
  const start = performance.now();
  const child = Bun.spawn([AWL, ...args], { cwd, env, stdin: "ignore", stdout: "pipe", stderr: "inherit" });
  let peak = 0;
  const poll = setInterval(() => (peak = Math.max(peak, vmHwm(child.pid) ?? 0)), 5);
  const [stdout] = await Promise.all([new Response(child.stdout).text(), child.exited]);
  clearInterval(poll);
  return { ms: performance.now() - start, peakRss: peak, stdout };
}

function project(name: string): { cwd: string; dir: string } {
  const cwd = join(root, name);
  mkdirSync(cwd, { recursive: true });
  const dir = join(sessions, encodeCwd(cwd));
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return { cwd, dir };
}

async function resumeFigures(label: string, bytes: number, runs: number): Promise<void> {
  const { cwd, dir } = project(`resume-${label}`);
  const t = performance.now();
  const file = join(dir, sessionFileName(new Date().toISOString(), Bun.randomUUIDv7()));
  const entries = writeSession(file, cwd, bytes);
  const size = statSync(file).size;
  console.log(`session ${label}: ${mb(size)}, ${entries} entries (written in ${((performance.now() - t) / 1000).toFixed(1)} s)`);
  const samples: Sample[] = [];
  for (let i = 0; i < runs; i++) samples.push(await runToFirstRequest(cwd, ["-p", "x", "--resume"]));
  const s = samples.at(-1)!;
  const peak = Math.max(...samples.map((x) => x.peakRss));
  const atRequest = Math.max(...samples.map((x) => x.rssAtRequest));
  if (s.refused) {
    console.log(`  awl -p x --resume: the request went out and was refused with 413 (over Bun.serve's 128 MB limit) before its body was read; start to exit ${s.totalMs.toFixed(0)} ms`);
    console.log(`  peak RSS ${mb(s.peakRss)} = ${(s.peakRss / size).toFixed(2)}x the file; awl said: ${s.refused}`);
    rmSync(file, { force: true });
    return;
  }
  console.log(
    `  awl -p x --resume, start to first request: ${median(samples.map((x) => x.toRequestMs)).toFixed(0)} ms (median of ${runs}; its headers at the server), ` +
      `body received whole ${median(samples.map((x) => x.toBodyMs)).toFixed(0)} ms, exit ${median(samples.map((x) => x.totalMs)).toFixed(0)} ms`,
  );
  console.log(`  peak RSS at the request ${mb(atRequest)}, until exit ${mb(peak)}; request body (the rebuilt conversation) ${mb(s.bodyBytes)}`);
  console.log(`  peak RSS / file size ${(peak / size).toFixed(2)}, peak RSS / rebuilt conversation ${(peak / s.bodyBytes).toFixed(2)}, above the baseline ${mb(peak - baseline)} = ${((peak - baseline) / s.bodyBytes).toFixed(2)}x the conversation`);

  // By id (found among this directory's sessions first), and the interactive resume (its transcript, then EOF quits).
  const id = idFromFileName(file)!.slice(0, 8);
  const byId: Sample[] = [];
  for (let i = 0; i < runs; i++) byId.push(await runToFirstRequest(cwd, ["-p", "x", "--resume", id]));
  console.log(`  awl -p x --resume ${id}, start to first request: ${median(byId.map((x) => x.toRequestMs)).toFixed(0)} ms (median of ${runs})`);
  const interactive: { ms: number; peakRss: number; stdout: string }[] = [];
  for (let i = 0; i < runs; i++) interactive.push(await runPlain(cwd, ["--resume"]));
  const shown = interactive[0]!.stdout.split("\n").length;
  console.log(`  awl --resume (interactive, quits at EOF), start to exit: ${median(interactive.map((x) => x.ms)).toFixed(0)} ms (median of ${runs}), ${shown} lines of transcript, peak RSS ${mb(Math.max(...interactive.map((x) => x.peakRss)))}`);
  rmSync(file, { force: true });
}

let baseline = 0;
try {
  // A baseline: the same command on a one-turn session.
  {
    const { cwd, dir } = project("baseline");
    writeSession(join(dir, sessionFileName(new Date().toISOString(), Bun.randomUUIDv7())), cwd, 10_000);
    const sample = await runToFirstRequest(cwd, ["-p", "x", "--resume"]);
    baseline = sample.peakRss;
    console.log(`baseline (a ${mb(sample.bodyBytes)} conversation): first request after ${sample.toRequestMs.toFixed(0)} ms, peak RSS ${mb(baseline)}`);
  }

  await resumeFigures("100 MB", 100e6, 3);
  if (process.env.AWL_BENCH_1GB === "1") {
    const free = Number(/\s(\d+)\s+\d+%/.exec(Bun.spawnSync(["df", "-Pk", root]).stdout.toString().split("\n")[1] ?? "")?.[1] ?? 0) * 1024;
    if (free < 3e9) console.log(`session 1 GB: skipped, only ${mb(free)} free in ${root}`);
    else await resumeFigures("1 GB", 1e9, 1);
  } else {
    console.log("session 1 GB: skipped (AWL_BENCH_1GB=1 runs it: ~1 GB of disk, a few minutes)");
  }

  // `awl sessions --plain` over 10,000 sessions.
  {
    const { cwd, dir } = project("listing");
    const t = performance.now();
    let total = 0;
    for (let i = 0; i < 10_000; i++) {
      const path = join(dir, sessionFileName(new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(), Bun.randomUUIDv7()));
      writeSession(path, cwd, 4_000);
      total += statSync(path).size;
    }
    console.log(`10,000 sessions, ${mb(total)} together (written in ${((performance.now() - t) / 1000).toFixed(1)} s)`);
    const runs: { ms: number; peakRss: number; stdout: string }[] = [];
    for (let i = 0; i < 3; i++) runs.push(await runPlain(cwd, ["sessions", "--plain"]));
    const rows = runs[0]!.stdout.trim().split("\n").length;
    console.log(`  awl sessions --plain: ${rows} lines, first ${runs[0]!.ms.toFixed(0)} ms, median ${median(runs.map((r) => r.ms)).toFixed(0)} ms of 3, peak RSS ${mb(Math.max(...runs.map((r) => r.peakRss)))}`);
  }
} finally {
  await server.stop();
  rmSync(root, { recursive: true, force: true });
}
