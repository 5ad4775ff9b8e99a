// What writing partials costs awl's CPU per delta: the same slow answer of
// 3,000 text deltas (long enough for a partial a second) through `awl -p`
// built from this tree and from a revision without partials, run alternately;
// the median CPU time (user + system) of each and the spread of the
// difference are printed beside the bar (<= 5% more).
//
//   git archive <revision without partials> | tar -x -C /tmp/base && ln -s "$PWD/node_modules" /tmp/base/ && (cd /tmp/base && bun run build)
//   AWL_BENCH_WITHOUT=/tmp/base/dist/awl bun run bench partials-cpu

import { benchWorld, median } from "./awl-process";
import { AWL } from "../e2e/awl";

const RUNS = 15;
const DELTAS = 3000;
const answer = Array.from({ length: DELTAS }, (_, i) => `w${i % 10} `).join(""); // 3 characters a delta
const without = process.env.AWL_BENCH_WITHOUT;
if (!without) {
  console.log("AWL_BENCH_WITHOUT (an awl built without partials) is not set: skipped");
  process.exit(0);
}

const world = await benchWorld("partials-cpu");
try {
  const { cwd } = world.project("p");
  const cpu: Record<"with" | "without", number[]> = { with: [], without: [] };
  const binaries = { with: AWL, without };
  let partials = 0;
  for (let i = 0; i <= RUNS; i++) {
    for (const form of ["with", "without"] as const) {
      world.server.reply({ blocks: [{ type: "text", text: answer }], chunk: 3, delayMs: 1 });
      const child = Bun.spawn([binaries[form], "-p", "go", "--json"], { cwd, env: world.env, stdin: "ignore", stdout: "pipe", stderr: "inherit" });
      const out = await new Response(child.stdout).text();
      if ((await child.exited) !== 0) throw new Error(`awl -p (${form}) exited ${child.exitCode}`);
      if (form === "with") partials += out.split("\n").filter((l) => l.startsWith('{"type":"partial"')).length;
      const usage = child.resourceUsage()!;
      if (i > 0) cpu[form].push(Number(usage.cpuTime.user + usage.cpuTime.system) / 1000);
    }
  }
  const a = median(cpu.without);
  const b = median(cpu.with);
  const diffs = cpu.with.map((x, i) => ((x - cpu.without[i]!) / cpu.without[i]!) * 100).sort((x, y) => x - y);
  console.log(`CPU of awl -p on a ${DELTAS}-delta answer streamed over seconds, medians of ${RUNS} runs each, alternating (${(partials / (RUNS + 1)).toFixed(1)} partials a run)`);
  console.log(`  without partials ${a.toFixed(1).padStart(7)} ms   (${(a / DELTAS * 1000).toFixed(1)} µs a delta)`);
  console.log(`  with partials    ${b.toFixed(1).padStart(7)} ms   (${(((b - a) / a) * 100).toFixed(1)}%, bar <= 5%; pairwise from ${diffs[0]!.toFixed(1)}% to ${diffs.at(-1)!.toFixed(1)}%, middle half ${diffs[Math.floor(RUNS / 4)]!.toFixed(1)}% to ${diffs[Math.floor((3 * RUNS) / 4)]!.toFixed(1)}%)`);
} finally {
  await world.cleanup();
}
