// Branch figures (issue 19), printed, not asserted: a fork of a 100 MB session
// (time and peak RSS of a process that does only that, as `awl --resume ID
// --fork` does before its first prompt) and the tree of a 100 MB,
// 24,000-entry session, read and drawn as /tree draws it, and printed by the
// compiled `awl sessions tree ID --json`. `bun run bench branches`.
import { rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { idFromFileName, sessionFileName } from "../../src/session";
import { benchWorld, mb, median, runPlain, vmHwm } from "./awl-process";
import { writeSession } from "./session-data";

const world = await benchWorld("branches");
const { env, project } = world;
const RUNS = 5;

const { cwd, dir } = project("tree");
const file = join(dir, sessionFileName(new Date().toISOString(), Bun.randomUUIDv7()));
const entries = writeSession(file, cwd, 100e6, 24_000);
const id = idFromFileName(file)!;
console.log(`session: ${mb(statSync(file).size)}, ${entries} entries`);

/** Runs `script` in its own bun process with the session modules at hand; its stdout is one JSON line of figures, and its peak RSS is polled. */
async function inProcess(script: string): Promise<{ figures: Record<string, number>; peakRss: number }> {
  const src = join(import.meta.dir, "../../src");
  const code = `import { readSessionTree } from "${src}/session/tree"; import { forkSession } from "${src}/session/fork"; import { treeRows } from "${src}/ui/session/tree";\n${script}`;
  const child = Bun.spawn(["bun", "-e", code], { env: { ...process.env, AWL_SESSION_DIR: env.AWL_SESSION_DIR!, FILE: file, CWD: cwd }, stdout: "pipe", stderr: "inherit" });
  let peak = 0;
  const poll = setInterval(() => (peak = Math.max(peak, vmHwm(child.pid) ?? 0)), 5);
  const [out] = await Promise.all([new Response(child.stdout).text(), child.exited]);
  clearInterval(poll);
  return { figures: JSON.parse(out), peakRss: Math.max(peak, vmHwm(child.pid) ?? 0) };
}

const forks: { ms: number; peakRss: number; baseRss: number }[] = [];
for (let i = 0; i < RUNS; i++) {
  const { figures, peakRss } = await inProcess(`
    const base = process.memoryUsage().rss;
    const t = performance.now();
    const tree = readSessionTree(process.env.FILE);
    // The newest entry a fork may end at (the generated session may stop at a tool call): nearly the whole file, one byte range.
    const at = tree.nodes.findLast((n) => !n.toolCalls && !n.bookkeeping);
    const child = forkSession({ tree, parentFile: process.env.FILE, cwd: process.env.CWD, at, model: { provider: "anthropic", model: "m" } });
    const ms = performance.now() - t;
    require("node:fs").rmSync(child);
    console.log(JSON.stringify({ ms, base }));`);
  forks.push({ ms: figures.ms!, peakRss, baseRss: figures.base! });
}
console.log(
  `fork of the path (a 100 MB byte range): ${median(forks.map((f) => f.ms)).toFixed(0)} ms (median of ${RUNS}; bar 300 ms), ` +
    `peak RSS ${mb(Math.max(...forks.map((f) => f.peakRss)))} (the process's own start ${mb(median(forks.map((f) => f.baseRss)))}; bar 100 MB)`,
);

const trees: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const { figures } = await inProcess(`
    const t = performance.now();
    const rows = treeRows(readSessionTree(process.env.FILE), "prompts", 120);
    console.log(JSON.stringify({ ms: performance.now() - t, rows: rows.length }));`);
  trees.push(figures.ms!);
}
console.log(`/tree, read and drawn (prompts): ${median(trees).toFixed(0)} ms (median of ${RUNS}; bar 300 ms)`);

const cli: { ms: number; peakRss: number }[] = [];
for (let i = 0; i < RUNS; i++) cli.push(await runPlain(env, cwd, ["sessions", "tree", id, "--json"]));
console.log(`awl sessions tree --json (compiled, start to exit): ${median(cli.map((r) => r.ms)).toFixed(0)} ms (median of ${RUNS}), peak RSS ${mb(Math.max(...cli.map((r) => r.peakRss)))}`);

rmSync(file, { force: true });
await world.cleanup();
