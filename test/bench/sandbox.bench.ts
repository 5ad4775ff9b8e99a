// What the sandbox adds to a bash call (issue bar: at most 10 ms over the same
// call outside it): the bash tool running `true`, outside bubblewrap and
// inside it at both levels (nothing writable, no network; the project
// writable, with the network), interleaved so a busy machine weighs on each
// alike; the median of 50 of each. Printed, not asserted.
//
//   bun run bench sandbox

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bash } from "../../src/tools/bash";
import { probeSandbox } from "../../src/tools/sandbox/probe";
import type { SandboxRun } from "../../src/tools/sandbox";

const RUNS = 50;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const probe = await probeSandbox();
if (!probe.ok) {
  console.log(`sandbox unavailable: ${probe.reason}`);
  process.exit(0);
}
const root = mkdtempSync(join(tmpdir(), "awl-bench-sandbox-"));
const level = (l: SandboxRun["level"]): SandboxRun => ({ bwrap: probe.bwrap, level: l, network: true, root, writable: [] });
const ways: [string, SandboxRun | undefined][] = [
  ["outside", undefined],
  ["no-write", level("no-write")],
  ["write", level("write")],
];
const times = new Map<string, number[]>(ways.map(([name]) => [name, []]));
const signal = new AbortController().signal;

for (let i = 0; i <= RUNS; i++) {
  for (const [name, sandbox] of ways) {
    const start = performance.now();
    const out = await bash.execute({ command: "true" }, { cwd: root, signal, ...(sandbox ? { sandbox } : {}) });
    if (out.isError) throw new Error(`${name}: ${out.content}`);
    if (i > 0) times.get(name)!.push(performance.now() - start); // the first round warms up
  }
}
const outside = median(times.get("outside")!);
for (const [name] of ways) {
  const m = median(times.get(name)!);
  console.log(`bash true, ${name.padEnd(8)} median ${m.toFixed(1)} ms${name === "outside" ? "" : ` (+${(m - outside).toFixed(1)} ms)`}  (${RUNS} runs)`);
}
rmSync(root, { recursive: true, force: true });
process.exit(0);
