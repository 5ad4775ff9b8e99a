// Compaction figures, printed, not asserted (issue 10's bar):
// - resume from the tail: `awl -p x --resume` of a 1 GB log whose latest
//   compaction leaves ~1 MB of live context, to its first request, against the
//   floor: the same command on a file that holds only that tail (header,
//   system message, then the same lines). Time and peak RSS, side by side.
// - `awl sessions --plain` over the 1 GB log: every message counted, in
//   bounded memory.
// - prompt caching: the share of input tokens read from the cache in a
//   10-round tool turn against the test server's Anthropic cache, and in the
//   summary request of an automatic compaction at ~150k tokens.
// AWL_BENCH_TAIL_MB sets the log's size (default 1024).
//
//   bun run bench compaction
import { closeSync, mkdtempSync, openSync, readSync, rmSync, statSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent } from "../../src/agent/agent";
import { idFromFileName, messageToDisk, serializeEntry, serializeHeader, SessionManager, sessionFileName, type WrittenEntry } from "../../src/session";
import { textMessage } from "../../src/conversation";
import { startTestServer } from "../support/server";
import { benchWorld, mb, median, runPlain, runToFirstRequest, type Sample } from "./awl-process";
import { text, turn } from "./session-data";

const LOG_BYTES = Number(process.env.AWL_BENCH_TAIL_MB ?? 1024) * 1e6;
const TAIL_BYTES = 1e6;
const RUNS = 5;
const MODEL = { provider: "anthropic", model: "claude-sonnet-4-5" };

// ~1 MB of live context is more than Claude's 200k tokens: a window that holds it, so the figure is the resume's, not a compaction's.
const world = await benchWorld("compaction", { AWL_CONTEXT_WINDOW: "10m" });
const { server, env, project } = world;

/**
 * A log of `bytes`: header, system message, turns; then a prompt, its turn, a
 * compaction that keeps from that prompt, and turns up to `tail` bytes after
 * the prompt. Returns where the kept prompt starts and how many lines there are.
 */
function writeCompactedLog(path: string, cwd: string, bytes: number, tail: number): { tailOffset: number; messages: number } {
  const fd = openSync(path, "w", 0o600);
  const id = path.slice(path.lastIndexOf("_") + 1, -".jsonl".length);
  const now = Date.now();
  let size = 0;
  let parentId: string | null = null;
  let n = 0;
  let messages = 0;
  let pending: string[] = [];
  const flush = () => {
    writeSync(fd, pending.join(""));
    pending = [];
  };
  const put = (line: string) => {
    pending.push(line);
    size += Buffer.byteLength(line);
    if (pending.length > 500) flush();
  };
  put(`${serializeHeader({ type: "session", version: 1, id, timestamp: new Date(now).toISOString(), cwd, ...MODEL })}\n`);
  const append = (make: (base: { id: string; parentId: string | null; timestamp: string }) => WrittenEntry) => {
    const entry = make({ id: (++n).toString(16).padStart(8, "0"), parentId, timestamp: new Date(now + n).toISOString() });
    if (entry.type === "message") messages++;
    put(`${serializeEntry(entry)}\n`);
    parentId = entry.id;
    return entry.id;
  };
  const appendTurn = () => {
    for (const message of turn()) append((base) => ({ type: "message", ...base, ...(message.role === "user" ? MODEL : {}), message }));
  };
  append((base) => ({ type: "message", ...base, message: messageToDisk(textMessage("system", text(4000))) }));
  while (size < bytes - tail) appendTurn();
  flush();
  const tailOffset = size;
  const keptId = (n + 1).toString(16).padStart(8, "0"); // the prompt that opens the next turn
  appendTurn();
  append((base) => ({
    type: "compaction",
    ...base,
    n: 7,
    summary: text(6000),
    firstKeptEntryId: keptId,
    keptPrompts: [text(400), text(300)],
    cutToolResults: [],
    window: 200_000,
    tokensBefore: 190_000,
    tokensAfter: 12_000,
    ...MODEL,
    usage: { input: 180_000, output: 2_000 },
    summarizedTurns: 5000,
  }));
  while (size < bytes) appendTurn();
  flush();
  closeSync(fd);
  return { tailOffset, messages };
}

/** The same session holding only the tail: a header of its own (this file's id, that project's cwd), the system message, then the bytes from `offset` on. */
function writeTailOnly(from: string, offset: number, to: string, cwd: string): void {
  const input = openSync(from, "r");
  const output = openSync(to, "w", 0o600);
  const buffer = Buffer.allocUnsafe(1 << 20);
  const head = buffer.subarray(0, readSync(input, buffer, 0, 1 << 20, 0));
  const first = head.indexOf(10);
  const header = { ...JSON.parse(head.toString("utf8", 0, first)), id: idFromFileName(to)!, cwd };
  writeSync(output, `${serializeHeader(header)}\n`);
  writeSync(output, head.subarray(first + 1, head.indexOf(10, first + 1) + 1));
  for (let at = offset, read = 1; read > 0; at += read) {
    read = readSync(input, buffer, 0, buffer.length, at);
    if (read > 0) writeSync(output, buffer.subarray(0, read));
  }
  closeSync(input);
  closeSync(output);
}

/** Message lines in a file, counted by their head (not by awl's listing, which is what is measured). */
function countMessages(path: string): number {
  const fd = openSync(path, "r");
  const buffer = Buffer.allocUnsafe(1 << 22);
  const needle = Buffer.from('\n{"type":"message"');
  let count = 0;
  for (let at = 0, read = 1; read > 0; at += Math.max(1, read - needle.length)) {
    read = readSync(fd, buffer, 0, buffer.length, at);
    const chunk = buffer.subarray(0, read);
    for (let i = chunk.indexOf(needle); i !== -1 && i + needle.length <= read; i = chunk.indexOf(needle, i + 1)) if (i < read - needle.length + 1 && (read < buffer.length || i < read - needle.length)) count++;
    if (read < buffer.length) break;
  }
  closeSync(fd);
  return count;
}

try {
  const big = project("log");
  const small = project("tail");
  const t = performance.now();
  const logFile = join(big.dir, sessionFileName(new Date().toISOString(), Bun.randomUUIDv7()));
  const { tailOffset, messages } = writeCompactedLog(logFile, big.cwd, LOG_BYTES, TAIL_BYTES);
  const tailFile = join(small.dir, sessionFileName(new Date().toISOString(), Bun.randomUUIDv7()));
  writeTailOnly(logFile, tailOffset, tailFile, small.cwd);
  console.log(
    `log ${mb(statSync(logFile).size)} (${messages.toLocaleString("en-US")} messages, the latest compaction keeps the last ${mb(statSync(logFile).size - tailOffset)}); ` +
      `tail-only file ${mb(statSync(tailFile).size)} (written in ${((performance.now() - t) / 1000).toFixed(1)} s)`,
  );

  // Alternating, so that both see the same machine.
  const logRuns: Sample[] = [];
  const tailRuns: Sample[] = [];
  for (let i = 0; i < RUNS; i++) {
    tailRuns.push(await runToFirstRequest(server, env, small.cwd, ["-p", "x", "--resume"]));
    logRuns.push(await runToFirstRequest(server, env, big.cwd, ["-p", "x", "--resume"]));
  }
  const ms = (s: Sample[]) => median(s.map((x) => x.toRequestMs));
  const rss = (s: Sample[]) => Math.max(...s.map((x) => x.peakRss));
  const log = `${(statSync(logFile).size / 1e9).toFixed(1)} GB log`;
  console.log(`awl -p x --resume, start to first request (median of ${RUNS}): ${log} ${ms(logRuns).toFixed(0)} ms, tail-only file ${ms(tailRuns).toFixed(0)} ms: ${(ms(logRuns) / ms(tailRuns)).toFixed(2)}x (bar: 1.2x)`);
  console.log(`  peak RSS: ${log} ${mb(rss(logRuns))}, tail-only ${mb(rss(tailRuns))}: ${mb(rss(logRuns) - rss(tailRuns))} more (bar: 50 MB); request body ${mb(logRuns[0]!.bodyBytes)} and ${mb(tailRuns[0]!.bodyBytes)}`);

  const listed = await runPlain(env, big.cwd, ["sessions", "--plain"]);
  console.log(`awl sessions --plain over the ${log}: ${listed.ms.toFixed(0)} ms, peak RSS ${mb(listed.peakRss)}: ${listed.stdout.trim()}`);
  console.log(`  (the log holds ${countMessages(logFile).toLocaleString("en-US")} message lines now: each run above added its prompt and the error that stopped it)`);
} finally {
  await world.cleanup();
}

// Prompt caching: one 10-round tool turn, in-process, against the test server's Anthropic cache (Sonnet's 1,024-token minimum).
{
  const cache = await startTestServer();
  const dir = mkdtempSync(join(tmpdir(), "awl-bench-cache-"));
  process.env.AWL_SESSION_DIR = join(dir, "sessions");
  await Bun.write(join(dir, "notes.txt"), Array.from({ length: 60 }, (_, i) => `line ${i}: the quick brown fox jumps over the lazy dog`).join("\n"));
  let rounds = 0;
  cache.respond = () => (++rounds <= 10 ? { blocks: [{ type: "toolUse", name: "read", input: { path: "notes.txt" } }] } : { blocks: [{ type: "text", text: "done" }] });
  const session = SessionManager.init({ cwd: dir, ...MODEL });
  const agent = new Agent({ session, cwd: dir, model: MODEL, env: { ANTHROPIC_API_KEY: cache.anthropicKey, ANTHROPIC_BASE_URL: cache.anthropicUrl } });
  await agent.runTurn("read notes.txt ten times", new AbortController().signal, () => {});
  const usages = session.getBranch().flatMap((e) => (e.type === "message" && e.message.usage ? [e.message.usage] : []));
  const after = usages.slice(1);
  const input = after.reduce((n, u) => n + u.input + (u.cacheRead ?? 0) + (u.cacheWrite ?? 0), 0);
  const read = after.reduce((n, u) => n + (u.cacheRead ?? 0), 0);
  console.log(`prompt cache, a ${usages.length}-request tool turn: after the first request ${read.toLocaleString("en-US")} of ${input.toLocaleString("en-US")} input tokens were cache reads (${((100 * read) / input).toFixed(1)}%; bar: 80%)`);
  session.close();
  await cache.stop();
  rmSync(dir, { recursive: true, force: true });
}

// The summary request of an automatic compaction at ~150k tokens: the share of
// its input read from the test server's Anthropic cache (it is asked of the
// conversation itself, with the conversation's system, tools and breakpoints).
{
  const cache = await startTestServer({ contextWindow: 175_000 });
  const dir = mkdtempSync(join(tmpdir(), "awl-bench-fork-"));
  process.env.AWL_SESSION_DIR = join(dir, "sessions");
  await Bun.write(join(dir, "big.txt"), Array.from({ length: 700 }, (_, i) => `line ${i}: the quick brown fox jumps over the lazy dog`).join("\n"));
  cache.respond = (r) => {
    const last = JSON.stringify(r.body.messages.at(-1));
    if (last.includes("about to be compacted") || r.rawBody.includes("You compact a coding session")) return { blocks: [{ type: "text", text: "## Goal\nRead big.txt." }] };
    if (last.includes("tool_result")) return { blocks: [{ type: "text", text: "Read it." }] };
    return { blocks: [{ type: "toolUse", name: "read", input: { path: "big.txt" } }] };
  };
  const session = SessionManager.init({ cwd: dir, ...MODEL });
  const env = { ANTHROPIC_API_KEY: cache.anthropicKey, ANTHROPIC_BASE_URL: cache.anthropicUrl, AWL_CONTEXT_WINDOW: "175000" };
  const agent = new Agent({ session, cwd: dir, model: MODEL, env });
  for (let t = 0; t < 40 && !session.compaction(); t++) await agent.runTurn(`turn ${t}: read big.txt again`, new AbortController().signal, () => {});
  const entry = session.compaction();
  const u = entry?.usage;
  if (!entry || !u) console.log("compaction's summary request: no compaction happened");
  else {
    const input = u.input + (u.cacheRead ?? 0) + (u.cacheWrite ?? 0);
    const share = (100 * (u.cacheRead ?? 0)) / input;
    console.log(`compaction at ${entry.tokensBefore.toLocaleString("en-US")} tokens: its summary request read ${(u.cacheRead ?? 0).toLocaleString("en-US")} of ${input.toLocaleString("en-US")} input tokens from the cache (${share.toFixed(1)}%; bar: 90%, 0% when the summary had its own system prompt and no tools)`);
  }
  session.close();
  await cache.stop();
  rmSync(dir, { recursive: true, force: true });
}
