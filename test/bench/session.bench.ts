// Session log figures (issue 2): replay of a ~100 MB realistic session against
// the floor (read the file + parse every line), peak memory, append+fsync
// latency, and listing 1,000 sessions. `bun run bench session`.
// Replay and floor each run in a child process, so each peak RSS is its own.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { encodeCwd, listSessions, messageToDisk, SessionManager, sessionFileName } from "../../src/session";
import { between, text, writeSession } from "./session-data";

const RUNS = 3;

const [mode, file] = process.argv.slice(2);
if (mode === "floor" || mode === "naive" || mode === "replay") {
  console.log(JSON.stringify(await child(mode, file!)));
  process.exit(0);
}

async function child(which: string, path: string) {
  const start = performance.now();
  let count = 0;
  if (which === "naive") {
    for (const line of readFileSync(path, "utf8").split("\n")) if (line) count += JSON.parse(line) ? 1 : 0;
  } else if (which === "floor") {
    // The fastest plain way: bytes in, one parse of each line's bytes (no string made of it), nothing kept but the objects.
    const bytes = readFileSync(path);
    const parsed: unknown[] = [];
    for (let start = 0, end = bytes.indexOf(10); end !== -1; start = end + 1, end = bytes.indexOf(10, start)) parsed.push(Bun.JSONL.parseChunk(bytes.subarray(start, end)).values[0]);
    count = parsed.length;
  } else {
    const session = await SessionManager.open(path);
    count = session.rebuildConversation().messages.length;
    session.close();
  }
  return { ms: performance.now() - start, count, peakRss: peakRss() };
}

/** Peak resident set size in bytes (VmHWM on Linux, getrusage elsewhere). */
function peakRss(): number {
  try {
    const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"));
    if (hwm) return Number(hwm[1]) * 1024;
  } catch {
    // not Linux
  }
  return process.resourceUsage().maxRSS * 1024;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;

const root = mkdtempSync(join(tmpdir(), "awl-bench-session-"));
process.env.AWL_SESSION_DIR = join(root, "sessions");
try {
  // (a) floor vs (b) open + rebuild, on one ~100 MB session
  const big = join(root, "big.jsonl");
  const entries = writeSession(big, "/bench/big", 100e6, 20_000);
  const size = statSync(big).size;
  console.log(`session: ${mb(size)}, ${entries} entries`);
  const runs = { floor: [] as number[], naive: [] as number[], replay: [] as number[], floorRss: 0, naiveRss: 0, replayRss: 0 };
  for (let i = 0; i < RUNS; i++) {
    for (const which of ["floor", "naive", "replay"] as const) {
      const out = Bun.spawnSync(["bun", "run", import.meta.path, which, big], { stderr: "inherit" });
      const r = JSON.parse(out.stdout.toString()) as { ms: number; peakRss: number };
      runs[which].push(r.ms);
      runs[`${which}Rss`] = Math.max(runs[`${which}Rss`], r.peakRss);
    }
  }
  const floor = median(runs.floor);
  const replay = median(runs.replay);
  console.log(`(a) floor, read the bytes + parse every line (Bun.JSONL.parseChunk): ${floor.toFixed(0)} ms (median of ${RUNS}), peak RSS ${mb(runs.floorRss)}`);
  console.log(`    (for reference: readFileSync as text + split + JSON.parse: ${median(runs.naive).toFixed(0)} ms, peak RSS ${mb(runs.naiveRss)})`);
  console.log(`(b) SessionManager.open + rebuildConversation: ${replay.toFixed(0)} ms (median of ${RUNS})`);
  console.log(`    ratio (b)/(a): ${(replay / floor).toFixed(2)}  (target <= 1.5)`);
  console.log(`    peak RSS of (b): ${mb(runs.replayRss)} = ${(runs.replayRss / size).toFixed(2)}x the file size  (target <= 3)`);

  // append + fsync latency
  const session = SessionManager.init({ cwd: "/bench/append", provider: "anthropic", model: "m" });
  const latencies: number[] = [];
  for (let i = 0; i < 500; i++) {
    const message = messageToDisk({ role: "assistant", content: [{ type: "text", text: text(between(200, 4000)) }] }, { stopReason: "stop" });
    const t = performance.now();
    session.appendMessage(message);
    latencies.push(performance.now() - t);
  }
  session.close();
  console.log(`append + fsync: p50 ${percentile(latencies, 0.5).toFixed(3)} ms, p99 ${percentile(latencies, 0.99).toFixed(3)} ms over ${latencies.length}  (target p50 <= 1 ms)`);

  // listing 1,000 sessions, 50 MB together
  const dir = join(process.env.AWL_SESSION_DIR, encodeCwd("/bench/list"));
  mkdirSync(dir, { recursive: true });
  let total = 0;
  for (let i = 0; i < 1000; i++) {
    const path = join(dir, sessionFileName(new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(), Bun.randomUUIDv7()));
    writeSession(path, "/bench/list", 50_000);
    total += statSync(path).size;
  }
  const times: number[] = [];
  let listed = 0;
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    listed = (await listSessions("/bench/list")).length;
    times.push(performance.now() - t);
  }
  console.log(`listSessions: ${listed} sessions, ${mb(total)}: first ${times[0]!.toFixed(0)} ms, median ${median(times).toFixed(0)} ms  (target <= 250 ms)`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
