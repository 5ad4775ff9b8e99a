// `awl sessions search` over 1,000 sessions totalling 1 GB (realistic lines:
// prompts, thinking with signatures, tool calls and large tool results),
// through the compiled binary, beside `rg -c` over the same files as the
// floor (skipped when rg is missing). A phrase is planted in one answer of one
// session. Bar: <= 2 s, <= 100 MB peak RSS. `bun run bench search`.
import { appendFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { encodeCwd, sessionFileName, serializeEntry, messageToDisk } from "../../src/session";
import { writeSession } from "./session-data";

const SESSIONS = 1000;
const BYTES = 1 << 20;
const PHRASE = "zebra finch handshake";
const AWL = join(import.meta.dir, "../../dist/awl");

const root = mkdtempSync(join(tmpdir(), "awl-search-bench-"));
try {
  const cwd = "/home/bench/project";
  const dir = join(root, encodeCwd(cwd));
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const started = performance.now();
  let planted = "";
  for (let i = 0; i < SESSIONS; i++) {
    const path = join(dir, sessionFileName(new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(), Bun.randomUUIDv7()));
    writeSession(path, cwd, BYTES);
    if (i === 613) {
      planted = path;
      const message = messageToDisk({ role: "assistant", content: [{ type: "text", text: `The fix is the ${PHRASE} in the driver.` }] });
      appendFileSync(path, `${serializeEntry({ type: "message", id: "feedf00d", parentId: null, timestamp: new Date().toISOString(), message: { ...message, provider: "anthropic", model: "claude-sonnet-4-5", stopReason: "stop" } })}\n`);
    }
  }
  const total = Number(Bun.spawnSync(["du", "-sb", root]).stdout.toString().split("\t")[0]);
  console.log(`generated ${SESSIONS} sessions, ${(total / 1e9).toFixed(2)} GB, in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: root, AWL_SESSION_DIR: root };
  // Peak RSS from GNU time (%M, KB): Bun's resourceUsage counts more than the child.
  const timed = Bun.which("time") ?? "/usr/bin/time";
  const run = (argv: string[]) => {
    const t = performance.now();
    const child = Bun.spawnSync([timed, "-f", "%M", ...argv], { cwd: "/", env, stdout: "pipe", stderr: "pipe" });
    const kb = Number(child.stderr.toString().trim().split("\n").at(-1));
    return { ms: performance.now() - t, rss: kb, out: child.stdout.toString(), code: child.exitCode };
  };
  for (const attempt of ["cold-ish (first run)", "warm"]) {
    const awl = run([AWL, "sessions", "search", PHRASE, "--all"]);
    const found = awl.out.includes(PHRASE) && awl.out.includes("feedf00d");
    console.log(`awl sessions search (${attempt}): ${awl.ms.toFixed(0)} ms, peak RSS ${(awl.rss / 1024).toFixed(0)} MB, found in ${planted.slice(-20)}: ${found}`);
    if (!found || awl.code !== 0) throw new Error(`search failed: ${awl.out}`);
  }
  if (Bun.which("rg")) {
    const rg = run(["rg", "-c", PHRASE, root]);
    console.log(`rg -c (floor, warm): ${rg.ms.toFixed(0)} ms, peak RSS ${(rg.rss / 1024).toFixed(0)} MB`);
  } else console.log("rg not found: no floor");
} finally {
  rmSync(root, { recursive: true, force: true });
}
