// Issue 6, item 3: fuzzed session files. Real session files (written by the
// real SessionManager and by the compiled awl) are mutated with a fixed seed
// and fed to SessionManager.open in-process (every mutation), to `awl sessions`
// (one run over a directory of many, plain and --json) and to
// `awl -p ... --resume <id>` (a sample). Whatever the bytes: no uncaught
// exception or stack trace, it loads or says why in one line naming the file
// (and line), and no file changes except the crash-recovery trim of a torn tail.
//
//   AWL_FUZZ_MUTATIONS=100000 bun test test/reliability/fuzz.test.ts
//   AWL_FUZZ_SEED=7 ...   (a failing input is also saved: see the failure report)
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { UserError } from "../../src/errors";
import { SessionManager, encodeCwd } from "../../src/session";
import { e2eFixture } from "../e2e/awl";
import { isJson } from "../../src/json";
import { splitLines } from "./lines";
import { prng } from "../support/prng";

const MUTATIONS = Number(process.env.AWL_FUZZ_MUTATIONS ?? 10_000);
const SEED = Number(process.env.AWL_FUZZ_SEED ?? 0x5eed);
/** How many mutations also go through the binary's --resume (evenly spread). */
const RESUME_SAMPLES = Number(process.env.AWL_FUZZ_RESUMES ?? 150);
const LISTED = Math.min(1000, MUTATIONS);
const HANG_GUARD_MS = 60_000;

let fx: Awaited<ReturnType<typeof e2eFixture>>;
interface Seed {
  name: string;
  id: string;
  bytes: Buffer;
}
const seeds: Seed[] = [];

// ---------------------------------------------------------------- seed files

const stamp = { provider: "anthropic", model: "claude-sonnet-4-5" };

/** Sessions written by the real writer: every block kind, multi-byte text, signatures, errors. */
function writeSeedsInProcess(cwd: string): string[] {
  const files: string[] = [];
  const a = SessionManager.init({ cwd, ...stamp });
  a.appendMessage({ role: "system", content: [{ type: "text", text: "You are awl." }] });
  a.appendMessage({ role: "user", content: [{ type: "text", text: "héllo wörld — 你好 🎉 \u2028 line\u2029sep \"quoted\" \\ back" }] }, stamp);
  a.appendMessage({
    role: "assistant",
    content: [
      { type: "thinking", thinking: "Let me think… ünïcödé 🤔", signature: "EqQBCkgIARABGAIiQL2k+sig/nature==" },
      { type: "thinking", thinking: "", signature: "opaque-redacted-blob", redacted: true },
      { type: "text", text: "I'll look." },
      { type: "toolUse", id: "toolu_01A", name: "bash", input: '{"command":"ls -la ~/ünï"}' },
    ],
    provider: "anthropic",
    model: "claude-sonnet-4-5",
    stopReason: "toolUse",
    usage: { input: 1500, output: 85 },
  });
  a.appendMessage({ role: "user", content: [{ type: "toolResult", toolUseId: "toolu_01A", content: "total 0\nfile—1.txt\n日本.md", isError: false }] }, stamp);
  a.appendMessage({ role: "assistant", content: [{ type: "text", text: "partial" }], stopReason: "error", errorMessage: "connection dropped" });
  a.appendMessage({ role: "user", content: [{ type: "text", text: "again" }] }, { provider: "openai", model: "gpt-4o" });
  a.appendMessage({ role: "assistant", content: [{ type: "text", text: "done ✓" }], provider: "openai", model: "gpt-4o", stopReason: "stop", usage: { input: 10, output: 2 } });
  files.push(a.sessionFile);
  a.close();

  const b = SessionManager.init({ cwd, ...stamp });
  b.appendMessage({ role: "system", content: [{ type: "text", text: "sys" }] });
  for (let turn = 0; turn < 12; turn++) {
    b.appendMessage({ role: "user", content: [{ type: "text", text: `turn ${turn} ${"ß".repeat(turn * 7)}` }] }, stamp);
    b.appendMessage({ role: "assistant", content: [{ type: "toolUse", id: `t${turn}`, name: "read", input: JSON.stringify({ path: `f${turn}` }) }], stopReason: "toolUse" });
    b.appendMessage({ role: "user", content: [{ type: "toolResult", toolUseId: `t${turn}`, content: "x".repeat(turn * 300), isError: turn % 5 === 0 }] }, stamp);
    b.appendMessage({ role: "assistant", content: [{ type: "text", text: `answer ${turn}` }], stopReason: "stop" });
  }
  files.push(b.sessionFile);
  b.close();
  return files;
}

// ---------------------------------------------------------------- mutations


type Rng = () => number;
const int = (r: Rng, n: number) => Math.floor(r() * n);
const pick = <T>(r: Rng, items: readonly T[]): T => items[int(r, items.length)]!;

const NL = Buffer.from("\n");
const joinLines = (lines: Buffer[]): Buffer => Buffer.concat(lines.flatMap((l, i) => (i === 0 ? [l] : [NL, l])));
/** Index of a random non-empty line, or -1. */
const someLine = (r: Rng, lines: Buffer[]): number => {
  const full = lines.map((l, i) => (l.length > 0 ? i : -1)).filter((i) => i >= 0);
  return full.length ? pick(r, full) : -1;
};
const insertAt = (b: Buffer, at: number, bytes: Buffer) => Buffer.concat([b.subarray(0, at), bytes, b.subarray(at)]);
const insertLine = (r: Rng, b: Buffer, line: Buffer | string): Buffer => {
  const lines = splitLines(b, true);
  lines.splice(int(r, lines.length + 1), 0, Buffer.isBuffer(line) ? line : Buffer.from(line));
  return joinLines(lines);
};

/** Rewrites one JSON line through `edit` (lines that do not parse are left alone). */
function editJson(r: Rng, b: Buffer, edit: (value: any, all: any[]) => void): Buffer {
  const lines = splitLines(b, true);
  const parsed = lines.map((l) => {
    try {
      return JSON.parse(l.toString("utf8"));
    } catch {
      return undefined;
    }
  });
  const candidates = parsed.map((p, i) => (p && typeof p === "object" ? i : -1)).filter((i) => i >= 0);
  if (candidates.length === 0) return b;
  const i = pick(r, candidates);
  edit(parsed[i], parsed);
  lines[i] = Buffer.from(JSON.stringify(parsed[i]));
  return joinLines(lines);
}

/** Every [container, key] inside a JSON value. */
function slots(value: any, out: [any, string | number][] = []): [any, string | number][] {
  if (Array.isArray(value)) value.forEach((v, i) => (out.push([value, i]), slots(v, out)));
  else if (value && typeof value === "object") for (const k of Object.keys(value)) out.push([value, k]), slots(value[k], out);
  return out;
}

const OTHER_VALUES = [null, 0, -1, 1.5, 1e308, true, false, "", "s", "ünï🎉", [], {}, [1, "a"], { type: "text" }, "x".repeat(1000)];
const entryIds = (all: any[]) => all.filter((v) => v && typeof v === "object" && typeof v.id === "string" && v.type !== "session").map((v) => v.id as string);

const deepArrays = (depth: number) => "[".repeat(depth) + "]".repeat(depth);
const deepObjects = (depth: number) => '{"a":'.repeat(depth) + "1" + "}".repeat(depth);
const entryWith = (extra: string) =>
  `{"type":"message","id":"fz000001","parentId":null,"timestamp":"2026-01-01T00:00:00.000Z","extra":${extra},"message":{"role":"user","content":[{"type":"text","text":"deep"}]}}`;

type Mutator = (r: Rng, b: Buffer) => Buffer;
const MUTATORS: [name: string, weight: number, fn: Mutator][] = [
  ["truncate", 6, (r, b) => b.subarray(0, int(r, b.length + 1))],
  [
    "truncate-in-line",
    6,
    (r, b) => {
      const lines = splitLines(b, true);
      const keep = 1 + int(r, Math.max(1, lines.length - 1));
      const next = lines[keep] ?? Buffer.alloc(0);
      return Buffer.concat([joinLines(lines.slice(0, keep)), NL, next.subarray(0, int(r, next.length + 1))]);
    },
  ],
  [
    "bit-flip",
    8,
    (r, b) => {
      const out = Buffer.from(b);
      for (let n = 1 + int(r, 4); n > 0 && out.length; n--) out[int(r, out.length)]! ^= 1 << int(r, 8);
      return out;
    },
  ],
  [
    "byte-set",
    4,
    (r, b) => {
      const out = Buffer.from(b);
      for (let n = 1 + int(r, 4); n > 0 && out.length; n--) out[int(r, out.length)] = pick(r, [0x22, 0x7b, 0x7d, 0x5b, 0x5d, 0x2c, 0x3a, 0x5c, 0x0a, 0x0d, 0x00, int(r, 256)]);
      return out;
    },
  ],
  ["delete-span", 3, (r, b) => {
    const at = int(r, b.length + 1);
    return Buffer.concat([b.subarray(0, at), b.subarray(Math.min(b.length, at + 1 + int(r, 64)))]);
  }],
  ["wrong-type", 8, (r, b) => editJson(r, b, (v) => {
    const all = slots(v);
    if (all.length) {
      const [c, k] = pick(r, all);
      c[k] = pick(r, OTHER_VALUES);
    }
  })],
  ["missing-field", 6, (r, b) => editJson(r, b, (v) => {
    const all = slots(v).filter(([c]) => !Array.isArray(c));
    if (all.length) {
      const [c, k] = pick(r, all);
      delete c[k];
    }
  })],
  ["extra-field", 5, (r, b) => editJson(r, b, (v) => {
    const objects = [v, ...slots(v).map(([c, k]) => c[k]).filter((x) => x && typeof x === "object" && !Array.isArray(x))];
    pick(r, objects)[pick(r, ["extra", "__proto__", "constructor", "type2", "id", "signature", "\u0000"])] = pick(r, OTHER_VALUES);
  })],
  ["duplicate-id", 4, (r, b) => editJson(r, b, (v, all) => {
    const ids = entryIds(all);
    if (ids.length && v.type !== "session") v.id = pick(r, ids);
  })],
  ["parent-cycle", 5, (r, b) => {
    // Point an entry's parent at itself or at a later entry: parent chains loop.
    const lines = splitLines(b, true);
    const parsed = lines.map((l) => { try { return JSON.parse(l.toString("utf8")); } catch { return undefined; } });
    const entries = parsed.map((p, i) => (p?.id && p.type !== "session" ? i : -1)).filter((i) => i >= 0);
    if (entries.length === 0) return b;
    const i = pick(r, entries);
    const later = entries.filter((j) => j >= i);
    const j = pick(r, later);
    parsed[i].parentId = parsed[j].id;
    if (r() < 0.5 && j !== i) parsed[j].parentId = parsed[i].id; // a two-cycle, both ways
    lines[i] = Buffer.from(JSON.stringify(parsed[i]));
    lines[j] = Buffer.from(JSON.stringify(parsed[j]));
    return joinLines(lines);
  }],
  ["missing-parent", 4, (r, b) => editJson(r, b, (v) => {
    if (v.type !== "session") v.parentId = pick(r, ["deadbeef", "", "../../etc/passwd", "0".repeat(100)]);
  })],
  ["line-ops", 6, (r, b) => {
    const lines = splitLines(b, true);
    const i = someLine(r, lines);
    if (i < 0) return b;
    const j = int(r, lines.length);
    switch (int(r, 4)) {
      case 0: lines.splice(i, 1); break; // delete
      case 1: lines.splice(j, 0, lines[i]!); break; // duplicate (also a second header)
      case 2: [lines[i], lines[j]] = [lines[j]!, lines[i]!]; break; // swap
      default: lines.splice(j, 0, lines[0]!); // the header again, somewhere
    }
    return joinLines(lines);
  }],
  ["huge-line", 1, (r, b) => {
    const size = (1 + int(r, 4)) << 20;
    switch (int(r, 3)) {
      case 0: return insertLine(r, b, `{"type":"message","id":"huge0001","parentId":null,"timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"user","content":[{"type":"text","text":"${"é".repeat(size / 2)}"}]}}`);
      case 1: return insertLine(r, b, Buffer.alloc(size, "a")); // not JSON at all
      default: return insertAt(b, b.length, Buffer.from(`{"type":"message","text":"${"z".repeat(size)}`)); // a huge torn tail
    }
  }],
  ["deep-nesting", 2, (r, b) => {
    const depth = pick(r, [1000, 10_000, 100_000]);
    const text = pick(r, [deepArrays(depth), deepObjects(depth), entryWith(deepArrays(depth)), entryWith(deepObjects(depth)), "[".repeat(depth)]);
    return r() < 0.5 ? insertLine(r, b, text) : Buffer.concat([b, Buffer.from(text)]);
  }],
  ["invalid-utf8", 5, (r, b) => {
    const bad = pick(r, [[0xff], [0xfe, 0xff], [0xc0, 0x80], [0xed, 0xa0, 0x80], [0xe2, 0x82], [0xf4, 0x90, 0x80, 0x80], [0x80]]);
    return insertAt(b, int(r, b.length + 1), Buffer.from(bad));
  }],
  ["bom", 3, (r, b) => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    if (r() < 0.5) return Buffer.concat([bom, b]);
    const lines = splitLines(b, true);
    const i = int(r, lines.length);
    lines[i] = Buffer.concat([bom, lines[i]!]);
    return joinLines(lines);
  }],
  ["crlf", 4, (r, b) => {
    const lines = splitLines(b, true);
    const all = r() < 0.5;
    return joinLines(lines.map((l, i) => (all || r() < 0.3) && i < lines.length - 1 ? Buffer.concat([l, Buffer.from("\r")]) : l));
  }],
  ["nul", 6, (r, b) => {
    const run = Buffer.alloc(1 + int(r, 4096));
    switch (int(r, 3)) {
      case 0: return Buffer.concat([b, run]); // a power cut's zeroed tail
      case 1: return insertAt(b, int(r, b.length + 1), run);
      default: {
        const out = Buffer.from(b);
        const at = int(r, out.length + 1);
        out.fill(0, at, at + run.length);
        return out;
      }
    }
  }],
  ["empty-lines", 4, (r, b) => {
    let out = b;
    for (let n = 1 + int(r, 3); n > 0; n--) out = insertLine(r, out, pick(r, ["", " ", "\t", "  \r", "\u00a0"]));
    return out;
  }],
  ["header-values", 3, (r, b) => {
    const lines = splitLines(b, true);
    const header = JSON.parse(lines[0]!.toString("utf8") || "{}");
    const key = pick(r, ["version", "id", "cwd", "timestamp", "provider", "model", "type"]);
    header[key] = pick(r, [2, 0, -1, 1.5, 1e309, "1", null, "", "../../x", "zzzz", ...OTHER_VALUES]);
    lines[0] = Buffer.from(JSON.stringify(header));
    return joinLines(lines);
  }],
];
const TOTAL_WEIGHT = MUTATORS.reduce((s, [, w]) => s + w, 0);

function pickMutator(r: Rng): [string, Mutator] {
  let x = r() * TOTAL_WEIGHT;
  for (const [name, w, fn] of MUTATORS) if ((x -= w) < 0) return [name, fn];
  return [MUTATORS[0]![0], MUTATORS[0]![2]];
}

interface Mutant {
  index: number;
  seed: Seed;
  names: string[];
  bytes: Buffer;
}

/** Mutation `index` of the run: deterministic given SEED, the seeds, and the index. */
function mutant(index: number): Mutant {
  const r = prng(SEED ^ Math.imul(index + 1, 0x9e3779b1));
  const seed = seeds[int(r, seeds.length)]!;
  let bytes = seed.bytes;
  const names: string[] = [];
  for (let n = r() < 0.25 ? 2 + int(r, 2) : 1; n > 0; n--) {
    const [name, fn] = pickMutator(r);
    // Mutators that parse lines must see an ordinary file; header-values assumes a JSON header.
    try {
      bytes = fn(r, bytes);
    } catch {
      continue; // e.g. header-values on a header another mutation broke: skip this step
    }
    names.push(name);
  }
  return { index, seed, names, bytes };
}

// ---------------------------------------------------------------- checks

/**
 * The only change open may make: cut a torn tail. `now` must be a prefix of
 * `old` and what was cut is either NUL bytes alone, or (from a line start) one
 * line that is not complete JSON, plus NULs and blank lines.
 */
function badChange(old: Buffer, now: Buffer): string | undefined {
  if (old.equals(now)) return undefined;
  if (now.length >= old.length || !old.subarray(0, now.length).equals(now)) return "file rewritten, not trimmed";
  const cut = old.subarray(now.length);
  const text = cut.toString("utf8").replace(/\0+$/, "");
  // NULs, or a blank unterminated tail: nothing a line was made of.
  if (!text.includes("\n") && text.trim() === "") return undefined;
  if (now.length > 0 && now[now.length - 1] !== 0x0a) return "trim does not start at a line boundary";
  const cutLines = text.split("\n").filter((l) => l.trim() !== "");
  if (cutLines.length !== 1) return `trim removed ${cutLines.length} lines`;
  try {
    JSON.parse(cutLines[0]!);
    return "trim removed a complete JSON line";
  } catch {
    return undefined;
  }
}

/** A one-line, non-empty message that names the file (and a line that exists, if it names one). */
function badMessage(message: string, file: string, lineCount: number): string | undefined {
  if (message.includes("\n")) return "message spans several lines";
  if (!message.includes(file)) return "message does not name the file";
  const at = new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:(\\d+):`).exec(message);
  if (at && (Number(at[1]) < 1 || Number(at[1]) > lineCount)) return `message names line ${at[1]} of ${lineCount}`;
  return undefined;
}

const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");
const failures: string[] = [];
let failDir = "";
function fail(m: Mutant, problem: string): void {
  const saved = join(failDir, `mutant-${m.index}.jsonl`);
  if (failures.length < 50) writeFileSync(saved, m.bytes);
  failures.push(`#${m.index} [${m.names.join("+")}] of ${m.seed.name}: ${problem} (input saved as ${saved})`);
}

// ---------------------------------------------------------------- set-up

beforeAll(async () => {
  fx = await e2eFixture();
  failDir = join(fx.root, "failures");
  mkdirSync(failDir);
  const saved = process.env.AWL_SESSION_DIR;
  process.env.AWL_SESSION_DIR = join(fx.root, "seeds");
  const files = writeSeedsInProcess(fx.project);
  if (saved === undefined) delete process.env.AWL_SESSION_DIR;
  else process.env.AWL_SESSION_DIR = saved;

  // And one from the compiled awl: a tool call, thinking with a signature, multi-byte text.
  fx.server.reply(
    { blocks: [{ type: "thinking", thinking: "Run it. ☂" }, { type: "toolUse", name: "bash", input: { command: "printf 'ünï\\n'" } }] },
    { blocks: [{ type: "thinking", thinking: "Done." }, { type: "text", text: "It printed ünï — 🎉" }] },
  );
  const run = await fx.run(["-p", "say ünï 🎉", "--thinking"]);
  if (run.code !== 0) throw new Error(`seed run failed: ${run.stderr}`);
  const dir = join(fx.sessions, encodeCwd(fx.project));
  files.push(...readdirSync(dir).filter((f) => f.endsWith(".jsonl")).map((f) => join(dir, f)));
  for (const file of files) {
    const name = file.slice(file.lastIndexOf("/") + 1);
    seeds.push({ name, id: name.slice(-42, -6), bytes: readFileSync(file) });
  }
  seeds.sort((a, b) => (a.bytes.length - b.bytes.length) || (a.name < b.name ? -1 : 1));
}, 60_000);

afterAll(async () => {
  if (failures.length === 0) await fx.cleanup();
  else await fx.server.stop(); // keep the saved inputs
});

// ---------------------------------------------------------------- tests

describe("fuzzed session files", () => {
  test(`SessionManager.open on ${MUTATIONS} mutations: loads or one-line UserError, only torn tails trimmed`, async () => {
    expect(seeds.length).toBeGreaterThanOrEqual(3);
    const dir = join(fx.root, "inproc");
    mkdirSync(dir);
    const file = join(dir, "2026-01-01T00-00-00-000Z_fuzz.jsonl");
    const counts = { mutations: 0, loaded: 0, rejected: 0, trimmed: 0 };
    const byKind = new Map<string, number>();
    for (let index = 0; index < MUTATIONS; index++) {
      const m = mutant(index);
      counts.mutations++;
      for (const name of m.names) byKind.set(name, (byKind.get(name) ?? 0) + 1);
      writeFileSync(file, m.bytes);
      let session: SessionManager | undefined;
      try {
        session = await SessionManager.open(file);
        // Everything resume does next must cope with cycles, missing parents, duplicates.
        session.getBranch();
        session.rebuildConversation();
        session.activeModel();
        session.messageCount();
        counts.loaded++;
        if (session.recovery) counts.trimmed++;
      } catch (error) {
        counts.rejected++;
        if (!(error instanceof UserError)) fail(m, `threw ${(error as Error)?.name}: ${(error as Error)?.message}`);
        else {
          const problem = badMessage(error.message, file, splitLines(m.bytes, true).length);
          if (problem) fail(m, `${problem}: ${error.message.slice(0, 300)}`);
        }
      } finally {
        session?.close();
      }
      const now = readFileSync(file);
      const change = badChange(m.bytes, now);
      if (change) fail(m, change);
      else if (!now.equals(m.bytes) && !session?.recovery) fail(m, "file changed but open reported no recovery");
      if (session?.recovery) {
        // A trimmed file opens again as it is, with the same entries.
        const again = await SessionManager.open(file).catch((e: Error) => e);
        if (again instanceof Error) fail(m, `reopening after the trim failed: ${again.message}`);
        else {
          if (again.recovery) fail(m, "a second open trimmed again");
          if (again.getBranch().length !== session.getBranch().length) fail(m, "reopening gave another branch");
          again.close();
        }
      }
    }
    console.log(`fuzz open: ${JSON.stringify(counts)} (seed ${SEED}; by kind ${JSON.stringify(Object.fromEntries([...byKind].sort()))})`);
    expect(failures).toEqual([]);
    expect(counts.loaded).toBeGreaterThan(0);
    expect(counts.rejected).toBeGreaterThan(0);
    expect(counts.trimmed).toBeGreaterThan(0);
  }, 300_000);

  test(`awl sessions (plain and --json) over a directory of ${LISTED} mutated files: exit 0, every file listed, none modified`, async () => {
    const env = { AWL_SESSION_DIR: join(fx.root, "listed") };
    const dir = join(env.AWL_SESSION_DIR, encodeCwd(fx.project));
    mkdirSync(dir, { recursive: true });
    const hashes = new Map<string, string>();
    const mutants = new Map<string, Mutant>();
    const step = Math.max(1, Math.floor(MUTATIONS / LISTED));
    for (let index = 0; index < MUTATIONS && hashes.size < LISTED; index += step) {
      const m = mutant(index);
      const path = join(dir, `${m.seed.name.slice(0, 25)}_${m.seed.id.slice(0, 28)}${index.toString(16).padStart(8, "0")}.jsonl`);
      writeFileSync(path, m.bytes);
      hashes.set(path, sha(m.bytes));
      mutants.set(path, m);
    }
    const plain = await guarded(fx.run(["sessions", "--plain"], { env }));
    const json = await guarded(fx.run(["sessions", "--json"], { env }));
    for (const [what, run] of [["plain", plain], ["--json", json]] as const) {
      expect({ what, code: run.code, stderr: run.stderr }).toEqual({ what, code: 0, stderr: "" });
    }
    const rows = JSON.parse(json.stdout) as { path: string; damaged?: string }[];
    // A mutated header may name another cwd: those rows are rightly not listed here.
    const foreign = [...mutants.values()].filter((m) => !splitLines(m.bytes, true)[0]!.toString("utf8").includes(`"cwd":${JSON.stringify(fx.project)}`)).length;
    expect(rows.length).toBeGreaterThanOrEqual(hashes.size - foreign);
    expect(plain.stdout.trim().split("\n").length).toBe(rows.length);
    for (const [path, hash] of hashes) {
      const m = mutants.get(path)!;
      if (sha(readFileSync(path)) !== hash) fail(m, "awl sessions modified the file");
    }
    const damaged = rows.filter((r) => r.damaged).length;
    console.log(`fuzz sessions: files ${hashes.size}, listed ${rows.length}, damaged ${damaged}, other cwd ${hashes.size - rows.length}`);
    expect(failures).toEqual([]);
  }, 120_000);

  test(`awl -p --resume <id> on ${RESUME_SAMPLES} mutations: exit 0/1/2, one-line errors, no stack, only torn tails trimmed`, async () => {
    const counts = { runs: 0, ok: 0, failed: 0, usage: 0, trimmed: 0 };
    const step = Math.max(1, Math.floor(MUTATIONS / RESUME_SAMPLES));
    const indices: number[] = [];
    for (let index = 0; index < MUTATIONS && indices.length < RESUME_SAMPLES; index += step) indices.push(index + 1);
    const one = async (index: number) => {
      const m = mutant(index);
      const root = join(fx.root, "resume", String(index));
      const dir = join(root, encodeCwd(fx.project));
      mkdirSync(dir, { recursive: true });
      const path = join(dir, m.seed.name);
      writeFileSync(path, m.bytes);
      fx.server.reply({ blocks: [{ type: "text", text: "ok" }] });
      const run = await guarded(fx.run(["-p", "next", "--resume", m.seed.id], { env: { AWL_SESSION_DIR: root } }));
      counts.runs++;
      if (run.code === 0) counts.ok++;
      else if (run.code === 2) counts.usage++;
      else counts.failed++;
      if (/recovered from a crash/i.test(run.stderr)) counts.trimmed++;
      if (![0, 1, 2].includes(run.code)) fail(m, `exit ${run.code}: ${run.stderr}`);
      if (/internal error/i.test(run.stderr) || /^\s+at /m.test(run.stderr)) fail(m, `internal error or stack: ${run.stderr.slice(0, 500)}`);
      const errors = run.stderr.split("\n").filter((l) => l.startsWith("awl:"));
      if (run.code !== 0 && errors.length !== 1) fail(m, `expected one error line, got: ${run.stderr.slice(0, 500)}`);
      // Append-only: what was there stays, except a torn tail; what was added is whole lines.
      const problem = badResumeChange(m.bytes, readFileSync(path));
      if (problem) fail(m, `resume: ${problem}`);
    };
    // Two at a time: this machine has two cores.
    for (let i = 0; i < indices.length; i += 2) await Promise.all(indices.slice(i, i + 2).map(one));
    console.log(`fuzz resume: ${JSON.stringify(counts)}`);
    expect(failures).toEqual([]);
    expect(counts.ok).toBeGreaterThan(0);
    expect(counts.failed + counts.usage).toBeGreaterThan(0);
  }, 600_000);
});

/**
 * After a resumed turn: the old file, less at most a torn tail, then whole
 * JSON lines. The appended line may share bytes with the cut tail, so each
 * place the tail could have been cut from (near the end) is tried.
 */
function badResumeChange(old: Buffer, now: Buffer): string | undefined {
  const cuts = [old.length];
  for (let p = old.length; p > 0 && cuts.length < 8; p--) if (old[p - 1] === 0x0a || (old[p] === 0 && old[p - 1] !== 0)) cuts.push(p);
  cuts.push(0);
  let why = "";
  for (const cut of cuts) {
    const kept = old.subarray(0, cut);
    if (!now.subarray(0, cut).equals(kept)) continue;
    const change = badChange(old, kept);
    if (change) {
      why ||= change;
      continue;
    }
    const added = now.subarray(cut).toString("utf8").replace(/^\n/, "");
    if (!added || (added.endsWith("\n") && added.trimEnd().split("\n").every(isJson))) return undefined;
    why ||= "appended something that is not whole JSON lines";
  }
  return why || "the old content is gone";
}

/** A run that has not finished after HANG_GUARD_MS is a hang (e.g. a parent cycle): fail, do not wait forever. */
async function guarded<T>(run: Promise<T>): Promise<T> {
  let timer: Timer | undefined;
  const hang = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`awl did not finish within ${HANG_GUARD_MS} ms: a hang`)), HANG_GUARD_MS)));
  try {
    return await Promise.race([run, hang]);
  } finally {
    clearTimeout(timer);
  }
}
