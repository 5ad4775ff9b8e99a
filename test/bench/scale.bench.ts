// Scale figures (issue 6), printed, not asserted: the compiled binary resuming
// a 100 MB (and, with AWL_BENCH_1GB=1, a 1 GB) session up to its first
// request, and `awl sessions --plain` over 10,000 sessions. awl runs in its own
// process against the test server in this one; its peak RSS is VmHWM read from
// /proc at the moment the request arrives (and polled until it exits), set
// against the conversation it rebuilt (the request body it sent).
// `bun run bench scale`.
import { rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { idFromFileName, sessionFileName } from "../../src/session";
import { benchWorld, mb, median, runPlain as runPlainIn, runToFirstRequest as runToFirstRequestIn, type Sample } from "./awl-process";
import { writeSession } from "./session-data";

// The 100 MB session must go out whole (its streamed body is what this measures), not be compacted.
const world = await benchWorld("scale", { AWL_CONTEXT_WINDOW: "100m" });
const { server, env, root, project } = world;
const runToFirstRequest = (cwd: string, args: string[]) => runToFirstRequestIn(server, env, cwd, args);
const runPlain = (cwd: string, args: string[]) => runPlainIn(env, cwd, args);

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
  await world.cleanup();
}
