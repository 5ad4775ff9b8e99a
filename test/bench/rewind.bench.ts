// Rewind figures. `bun run bench rewind`.
// A 20-turn session whose write calls changed 500 files of 32 KiB (25 a
// turn) is rewound to before its first turn and forward again (each rewind
// puts all 500 back: planned from the disk, a file_change entry each, written
// inside the project), against writing the same 500 files atomically
// (temporary file, fsync, rename) side by side in the same run, median of
// RUNS. Bar: <= 2x.
import { closeSync, fsyncSync, mkdirSync, mkdtempSync, openSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Checkpoints } from "../../src/agent/checkpoints";
import { rewindTo } from "../../src/agent/rewind";
import { SessionManager } from "../../src/session";

const RUNS = 5;
const TURNS = 20;
const FILES = 500;
const SIZE = 32 * 1024;
const root = mkdtempSync(join(tmpdir(), "awl-bench-rewind-"));
process.env.AWL_SESSION_DIR = join(root, "sessions");
const env = { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" };
const stamp = { provider: "anthropic", model: "m" };

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

const fileName = (i: number) => `src/dir${i % 10}/file${i}.txt`;
const bytes = (seed: string) => Buffer.from(seed.padEnd(64, ".").repeat(SIZE / 64));

/** The floor: the same files written as an editor saves them, one temporary file each, fsync'd and renamed. */
function atomicWrites(dir: string, contents: Buffer[]): number {
  const start = performance.now();
  for (const [i, content] of contents.entries()) {
    const path = join(dir, fileName(i));
    const temp = `${path}.tmp`;
    const fd = openSync(temp, "w", 0o644);
    writeSync(fd, content);
    fsyncSync(fd);
    closeSync(fd);
    renameSync(temp, path);
  }
  return performance.now() - start;
}

async function main(): Promise<void> {
  const project = join(root, "project");
  const floor = join(root, "floor");
  for (const dir of [project, floor]) for (let d = 0; d < 10; d++) mkdirSync(join(dir, "src", `dir${d}`), { recursive: true });
  const original = Array.from({ length: FILES }, (_, i) => bytes(`original ${i}`));
  original.forEach((content, i) => writeFileSync(join(project, fileName(i)), content));
  const session = SessionManager.init({ cwd: project, ...stamp });
  const checkpoints = new Checkpoints(session, project, env);
  let first = "";
  let last = "";
  for (let t = 0; t < TURNS; t++) {
    const prompt = session.appendMessage({ role: "user", content: [{ type: "text", text: `turn ${t + 1}` }] }, stamp);
    first ||= prompt;
    for (let i = t * (FILES / TURNS); i < (t + 1) * (FILES / TURNS); i++) {
      const path = join(project, fileName(i));
      const after = bytes(`turn ${t + 1} file ${i}`);
      await checkpoints.beforeChange({ path, before: readFileSync(path), after, mode: 0o644 });
      writeFileSync(path, after);
    }
    last = session.appendMessage({ role: "assistant", content: [{ type: "text", text: `done ${t + 1}` }], ...stamp, stopReason: "stop" });
  }
  const rewinds: number[] = [];
  const floors: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    for (const target of [first, last]) {
      const start = performance.now();
      const done = await rewindTo(session, target, { scope: "both", env });
      rewinds.push(performance.now() - start);
      const restored = done.steps.filter((s) => s.action === "restore").length;
      if (restored !== FILES) throw new Error(`a rewind restored ${restored} files, not ${FILES}`);
      floors.push(atomicWrites(floor, original));
    }
  }
  const ratio = median(rewinds) / median(floors);
  console.log(
    `rewind of a ${TURNS}-turn session, ${FILES} files of ${SIZE / 1024} KiB: ${median(rewinds).toFixed(1)} ms; the same files written atomically (temp, fsync, rename) ${median(floors).toFixed(1)} ms; ${ratio.toFixed(2)}x (bar 2x) ${ratio <= 2 ? "ok" : "OVER"}`,
  );
  session.close();
}

try {
  await main();
} finally {
  rmSync(root, { recursive: true, force: true });
}
