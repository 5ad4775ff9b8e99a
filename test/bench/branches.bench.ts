// Branch figures (issue 19), printed, not asserted, each beside its floor: a
// fork of a 100 MB session (time and peak RSS of a process that does only
// that, as `awl --resume ID --fork` does before its first prompt) beside a
// bare kernel copy of the same bytes with its fsync; the tree of a 100 MB,
// 24,000-entry session, read and drawn as /tree draws it, beside a bare read
// of the file; and the compiled `awl sessions tree ID [--json]` beside
// `awl --version`. `bun run bench branches`.
import { rmSync, statSync, writeFileSync } from "node:fs";
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
// The id of the last prompt: the last user message whose first block is text.
const lastPrompt = (await Bun.file(file).text()).split("\n").findLast((line) => line.includes(`"role":"user","content":[{"type":"text"`))!.slice(24, 32);
console.log(`session: ${mb(statSync(file).size)}, ${entries} entries`);

/**
 * Runs `script` in its own bun process with the session modules at hand; its
 * stdout is one JSON line of figures, and its peak RSS is polled. The script
 * runs from a file, as the compiled binary's code does (code given to
 * `bun -e` ran the same tree read about 40% slower).
 */
async function inProcess(script: string): Promise<{ figures: Record<string, number>; peakRss: number }> {
  const src = join(import.meta.dir, "../../src");
  const code = `import { forkSession, readSessionTree } from "${src}/session/tree"; import { copyRange } from "${src}/session/tree/copy-range"; import { treeRows } from "${src}/ui/session/tree"; import * as fs from "node:fs";\n${script}`;
  const scriptFile = join(world.root, "measure.ts");
  writeFileSync(scriptFile, code);
  const child = Bun.spawn(["bun", scriptFile], { env: { ...process.env, AWL_SESSION_DIR: env.AWL_SESSION_DIR!, FILE: file, CWD: cwd, AT: lastPrompt }, stdout: "pipe", stderr: "inherit" });
  let peak = 0;
  const poll = setInterval(() => (peak = Math.max(peak, vmHwm(child.pid) ?? 0)), 5);
  const [out] = await Promise.all([new Response(child.stdout).text(), child.exited]);
  clearInterval(poll);
  return { figures: JSON.parse(out), peakRss: Math.max(peak, vmHwm(child.pid) ?? 0) };
}

const ms = (xs: number[]) => `${median(xs).toFixed(0)} ms`;

// Floors and figures alternate run by run, so a busy machine weighs on both alike.
const floorCopy: number[] = [];
const forks: { ms: number; peakRss: number; baseRss: number }[] = [];
const forksAt: number[] = [];
const floorRead: number[] = [];
const trees: number[] = [];
const treesAll: number[] = [];
for (let i = 0; i < RUNS; i++) {
  // A copy of the same bytes by the kernel, fsync'd, in a process that reads nothing else: what no fork can beat.
  const copy = await inProcess(`
    const t = performance.now();
    const from = fs.openSync(process.env.FILE, "r"), to = fs.openSync(process.env.FILE + ".copy", "w");
    copyRange(from, to, 0, fs.fstatSync(from).size);
    fs.fsyncSync(to);
    const ms = performance.now() - t;
    fs.rmSync(process.env.FILE + ".copy");
    console.log(JSON.stringify({ ms }));`);
  floorCopy.push(copy.figures.ms!);
  const { figures, peakRss } = await inProcess(`
    const base = process.memoryUsage().rss;
    const t = performance.now();
    // As \`awl --resume ID --fork\` and /fork make it: at the leaf, the path found from the lines' heads.
    const child = forkSession({ parentFile: process.env.FILE, cwd: process.env.CWD, model: (m) => m }).file;
    const ms = performance.now() - t;
    fs.rmSync(child);
    console.log(JSON.stringify({ ms, base }));`);
  forks.push({ ms: figures.ms!, peakRss, baseRss: figures.base! });
  // \`--fork --at ENTRY\`: the entry named by an id prefix, found in the whole tree (here the last prompt: nearly the whole file).
  const at = await inProcess(`
    const t = performance.now();
    const child = forkSession({ parentFile: process.env.FILE, at: process.env.AT, cwd: process.env.CWD, model: (m) => m }).file;
    const ms = performance.now() - t;
    fs.rmSync(child);
    console.log(JSON.stringify({ ms }));`);
  forksAt.push(at.figures.ms!);
  const read = await inProcess(`
    const t = performance.now();
    const fd = fs.openSync(process.env.FILE, "r"), block = Buffer.allocUnsafe(1 << 22);
    for (let at = 0, n; (n = fs.readSync(fd, block, 0, block.length, at)); at += n);
    console.log(JSON.stringify({ ms: performance.now() - t }));`);
  floorRead.push(read.figures.ms!);
  const prompts = await inProcess(`
    const t = performance.now();
    const rows = treeRows(readSessionTree(process.env.FILE, { text: false }), "prompts", 120);
    console.log(JSON.stringify({ ms: performance.now() - t, rows: rows.length }));`);
  trees.push(prompts.figures.ms!);
  const all = await inProcess(`
    const t = performance.now();
    const rows = treeRows(readSessionTree(process.env.FILE), "all", 120);
    console.log(JSON.stringify({ ms: performance.now() - t, rows: rows.length }));`);
  treesAll.push(all.figures.ms!);
}
console.log(`floor: a kernel copy of the file and its fsync: ${ms(floorCopy)}; a bare read of the file: ${ms(floorRead)} (medians of ${RUNS})`);
console.log(
  `fork at the leaf (100 MB of path): ${ms(forks.map((f) => f.ms))} (bar 300 ms), peak RSS ${mb(Math.max(...forks.map((f) => f.peakRss)))} ` +
    `(the process's own start ${mb(median(forks.map((f) => f.baseRss)))}; bar 100 MB); at an entry named by --at: ${ms(forksAt)}`,
);
console.log(`/tree, read and drawn: prompts (the default) ${ms(trees)}, all ${ms(treesAll)} (bar 300 ms)`);

// The compiled binary, start to exit, beside the start of one that does nothing.
const version: number[] = [];
const cliAll: { ms: number; peakRss: number }[] = [];
const cliJson: { ms: number; peakRss: number }[] = [];
for (let i = 0; i < RUNS; i++) {
  version.push((await runPlain(env, cwd, ["--version"])).ms);
  cliAll.push(await runPlain(env, cwd, ["sessions", "tree", id]));
  cliJson.push(await runPlain(env, cwd, ["sessions", "tree", id, "--json"]));
}
const cli = (xs: { ms: number; peakRss: number }[]) => `${ms(xs.map((r) => r.ms))}, peak RSS ${mb(Math.max(...xs.map((r) => r.peakRss)))}`;
console.log(`compiled awl (medians of ${RUNS}): --version ${ms(version)}; sessions tree ${cli(cliAll)}; sessions tree --json ${cli(cliJson)}`);

rmSync(file, { force: true });
await world.cleanup();
