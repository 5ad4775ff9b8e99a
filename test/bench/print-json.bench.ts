// What `--json` costs over plain `awl -p`: the CPU time (user + system) of
// the whole awl process on one answer of 3,000 deltas, the two forms run
// alternately; the median of each is printed beside the bar (<= 5% more).
//
//   bun run bench print-json

import { benchWorld, median } from "./awl-process";
import { AWL } from "../e2e/awl";

const RUNS = 15;
const DELTAS = 3000;
const answer = Array.from({ length: DELTAS }, (_, i) => `w${i % 10} `).join(""); // 3 characters a delta

const world = await benchWorld("print-json");
try {
  const { cwd } = world.project("p");
  const cpu: Record<"plain" | "json", number[]> = { plain: [], json: [] };
  for (let i = 0; i <= RUNS; i++) {
    for (const form of ["plain", "json"] as const) {
      world.server.reply({ blocks: [{ type: "text", text: answer }], chunk: 3 });
      const child = Bun.spawn([AWL, "-p", "go", ...(form === "json" ? ["--json"] : [])], { cwd, env: world.env, stdin: "ignore", stdout: "pipe", stderr: "inherit" });
      await new Response(child.stdout).text();
      if ((await child.exited) !== 0) throw new Error(`awl -p ${form} exited ${child.exitCode}`);
      const usage = child.resourceUsage()!;
      if (i > 0) cpu[form].push(Number(usage.cpuTime.user + usage.cpuTime.system) / 1000);
    }
  }
  const plain = median(cpu.plain);
  const json = median(cpu.json);
  console.log(`CPU of awl -p on a ${DELTAS}-delta answer, medians of ${RUNS} runs each, alternating`);
  console.log(`  awl -p          ${plain.toFixed(1).padStart(7)} ms`);
  console.log(`  awl -p --json   ${json.toFixed(1).padStart(7)} ms   (${(((json - plain) / plain) * 100).toFixed(1)}%, bar <= 5%)`);
} finally {
  await world.cleanup();
}
