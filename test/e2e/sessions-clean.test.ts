// awl sessions rm / restore / prune / trash / purge / du, run as a person runs
// them: sessions leave only through the trash, every one moved or deleted is
// named, ages are the last entry's time (never mtime), an open session stays.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, renameSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { encodeCwd } from "../../src/session/log/paths";
import { spawnBun } from "../session/helpers";
import { AWL, sessionFiles, useE2eFixture } from "./awl";
import { hasTmux, useTerminal } from "./tmux";

const fx = useE2eFixture();
const term = useTerminal();
const DAY = 86_400_000;
const NOW = Date.now();
const hash = (c: string) => c.repeat(64);

/** A session of `cwd` whose entries are `daysAgo` old, written by hand as awl writes them; optional extra lines. */
function writeSession(cwd: string, id: string, daysAgo: number, prompt: string, extra: string[] = []): string {
  const at = (ms: number) => new Date(NOW - daysAgo * DAY + ms).toISOString();
  const created = at(0);
  const lines = [
    { type: "session", version: 1, id, timestamp: created, cwd, provider: "anthropic", model: "claude-sonnet-4-5" },
    { type: "message", id: "s0000001", parentId: null, timestamp: at(1), message: { role: "system", content: [{ type: "text", text: "sys" }] } },
    { type: "message", id: "u0000001", parentId: "s0000001", timestamp: at(2), provider: "anthropic", model: "claude-sonnet-4-5", message: { role: "user", content: [{ type: "text", text: prompt }] } },
    { type: "message", id: "a0000001", parentId: "u0000001", timestamp: at(3), message: { role: "assistant", content: [{ type: "text", text: "done" }], provider: "anthropic", model: "claude-sonnet-4-5", stopReason: "stop", usage: { input: 10, output: 2 } } },
  ].map((l) => JSON.stringify(l));
  const dir = join(fx.sessions, encodeCwd(cwd));
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, `${created.replace(/[:.]/g, "-")}_${id}.jsonl`);
  writeFileSync(path, [...lines, ...extra].join("\n") + "\n", { mode: 0o600 });
  return path;
}

const OLD = "019a0000-0000-7000-8000-000000000001";
const NEW = "019b0000-0000-7000-8000-000000000002";

describe("awl sessions prune", () => {
  test("judges age by the last entry, never mtime: a 400-day-old session with a 1970 mtime is listed, resumable, and moved by --older-than 300d only", async () => {
    const old = writeSession(fx.project, OLD, 400, "the ancient question");
    const fresh = writeSession(fx.project, NEW, 1, "yesterday's question");
    utimesSync(old, 0, 0);
    utimesSync(fresh, 0, 0); // an old mtime on a fresh session must not make it old

    const listed = await fx.run(["sessions"]);
    expect(listed.stdout.trim().split("\n")).toHaveLength(2);

    fx.server.reply({ blocks: [{ type: "text", text: "still here" }] });
    const resumed = await fx.run(["-p", "are you there?", "--resume", "019a"]);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain("still here");
    // That resume made it active again: put it back to 400 days.
    writeSession(fx.project, OLD, 400, "the ancient question");
    utimesSync(old, 0, 0);

    expect((await fx.run(["sessions", "prune", "--older-than", "500d"])).stdout).toContain("No session from this directory has been inactive for 500d");
    const dry = await fx.run(["sessions", "prune", "--older-than", "300d", "--dry-run"]);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/^Would move 019a0000  \d{4}-\d\d-\d\d \d\d:\d\d  the ancient question$/m);
    expect(dry.stdout).not.toContain("yesterday");
    expect(dry.stdout).toContain("nothing was moved");
    expect(existsSync(old)).toBe(true);

    const run = await fx.run(["sessions", "prune", "--older-than", "300d"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Moved 019a0000 .* the ancient question$/m);
    expect(run.stdout).toContain("Moved 1 session to the trash");
    expect(existsSync(old)).toBe(false);
    expect(existsSync(fresh)).toBe(true);
    expect((await fx.run(["sessions", "trash"])).stdout).toContain("the ancient question");
  });

  test("needs --older-than, in days, hours or weeks", async () => {
    const missing = await fx.run(["sessions", "prune"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("--older-than");
    const bad = await fx.run(["sessions", "prune", "--older-than", "90"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("such as 90d");
  });
});

describe("awl sessions rm and restore", () => {
  test("rm then restore gives back the file byte for byte; trash lists it meanwhile", async () => {
    const path = writeSession(fx.project, OLD, 3, "keep me");
    const before = readFileSync(path);
    const rm = await fx.run(["sessions", "rm", "019a"]);
    expect(rm.code).toBe(0);
    expect(rm.stdout).toContain("Moved 019a0000");
    expect(rm.stdout).toContain("awl sessions restore 019a0000");
    expect(existsSync(path)).toBe(false);
    expect((await fx.run(["sessions"])).stdout).toMatch(/no sessions/i);
    const trash = await fx.run(["sessions", "trash", "--json"]);
    expect(JSON.parse(trash.stdout)).toMatchObject([{ id: OLD, cwd: fx.project, trashedAt: expect.any(String) }]);

    const restored = await fx.run(["sessions", "restore", "019a"]);
    expect(restored.code).toBe(0);
    expect(readFileSync(path).equals(before)).toBe(true);
    expect((await fx.run(["sessions", "trash"])).stdout).toContain("holds no session");
  });

  test("restore names the session without running what its header holds", async () => {
    // A trashed file whose header's id carries an OSC 0 title and a clear screen.
    const path = writeSession(fx.project, "019a\x1b]0;restore-title\x07\x1b[2J", 3, "hostile");
    const trashed = join(fx.sessions, ".trash", encodeCwd(fx.project));
    mkdirSync(trashed, { recursive: true, mode: 0o700 });
    renameSync(path, join(trashed, "2026-01-01T00-00-00-000Z_019a0000-0000-7000-8000-000000000001.jsonl"));
    const trash = await fx.run(["sessions", "trash"]);
    expect(trash.stdout).toContain("019a␛]0;");
    const restored = await fx.run(["sessions", "restore", "019a"]);
    expect(restored.code).toBe(0);
    expect(restored.stdout).toStartWith("Restored 019a␛]0;");
    expect(trash.stdout + restored.stdout).not.toContain("\x1b");
  });

  test("an id that matches nothing, several, or another directory's session is a usage error that says which", async () => {
    writeSession(fx.project, OLD, 3, "one");
    writeSession(fx.project, "019a0000-0000-7000-8000-000000000009", 3, "two");
    writeSession(join(fx.root, "elsewhere"), NEW, 3, "other project");
    const none = await fx.run(["sessions", "rm", "0123"]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("no session from this directory matches '0123'");
    const several = await fx.run(["sessions", "rm", "019a"]);
    expect(several.code).toBe(2);
    expect(several.stderr).toContain("matches 2 sessions");
    const other = await fx.run(["sessions", "rm", "019b"]);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain("add --all");
    expect((await fx.run(["sessions", "rm", "019b", "--all"])).code).toBe(0);
    expect(sessionFiles(join(fx.sessions, encodeCwd(join(fx.root, "elsewhere"))))).toHaveLength(0);
  });

  test("an open session is not moved", async () => {
    const path = writeSession(fx.project, OLD, 400, "busy");
    const holder = spawnBun(`const s = await S.SessionManager.open(${JSON.stringify(path)}); console.log("ready"); await Bun.sleep(60_000);`, { ...process.env, ...fx.env });
    try {
      const reader = holder.stdout.getReader();
      const { value } = await reader.read();
      expect(new TextDecoder().decode(value)).toContain("ready");
      const rm = await fx.run(["sessions", "rm", "019a"]);
      expect(rm.code).toBe(1);
      expect(rm.stderr).toContain("is open in awl (pid");
      const prune = await fx.run(["sessions", "prune", "--older-than", "1d"]);
      expect(prune.code).toBe(1);
      expect(prune.stdout).toMatch(/^Kept 019a0000 .*busy: session .* is open/m);
      expect(existsSync(path)).toBe(true);
    } finally {
      holder.kill();
      await holder.exited;
    }
  });
});

describe("awl sessions purge and du", () => {
  test("purge deletes trashed sessions and the blobs nobody refers to, nothing else", async () => {
    const blobs = join(fx.sessions, ".blobs");
    mkdirSync(blobs, { recursive: true });
    const change = (before: string, after: string) =>
      JSON.stringify({ type: "file_change", id: "f0000001", parentId: "a0000001", timestamp: new Date().toISOString(), path: "/x", before, after, mode: 420 });
    const live = writeSession(fx.project, NEW, 1, "live one", [change(hash("a"), hash("b"))]);
    writeSession(fx.project, OLD, 1, "trashed one", [change(hash("c"), hash("d"))]);
    for (const c of "abcdef") writeFileSync(join(blobs, hash(c)), c);
    const hourAgo = (Date.now() - 2 * 3_600_000) / 1000;
    for (const c of "abcde") utimesSync(join(blobs, hash(c)), hourAgo, hourAgo); // f stays young

    expect((await fx.run(["sessions", "rm", "019a"])).code).toBe(0);
    // While trashed, its blobs are kept: only e is unreferenced and old.
    const first = await fx.run(["sessions", "purge", "--older-than", "1d"]);
    expect(first.stdout).toContain("Deleted 0 trashed sessions");
    expect(first.stdout).toContain("Deleted 1 file checkpoint blob no session refers to (1 B); 1 unreferenced blob less than an hour old kept.");
    expect(existsSync(join(blobs, hash("e")))).toBe(false);
    expect(existsSync(join(blobs, hash("c")))).toBe(true);

    const dry = await fx.run(["sessions", "purge", "--dry-run"]);
    expect(dry.stdout).toMatch(/^Would delete 019a0000 .*trashed one$/m);
    expect(dry.stdout).toContain("Would delete 2 file checkpoint blobs");
    expect(existsSync(join(blobs, hash("c")))).toBe(true);

    const run = await fx.run(["sessions", "purge"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Deleted 019a0000 .*trashed one$/m);
    expect(run.stdout).toContain("Deleted 2 file checkpoint blobs");
    expect(["a", "b", "c", "d", "e", "f"].filter((c) => existsSync(join(blobs, hash(c))))).toEqual(["a", "b", "f"]);
    expect(existsSync(live)).toBe(true);
    expect(sessionFiles(join(fx.sessions, ".trash"))).toEqual([]);
  });

  test.skipIf(!hasTmux)("on a terminal, purge names what it would delete and asks first: no keeps the trash, yes empties it", async () => {
    writeSession(fx.project, OLD, 1, "trashed one");
    expect((await fx.run(["sessions", "rm", "019a"])).code).toBe(0);
    const [trashed] = sessionFiles(join(fx.sessions, ".trash"));
    const ask = async () => {
      term.start([AWL, "sessions", "purge"], { cwd: fx.project, env: fx.env, width: 100 });
      const screen = await term.waitFor(/Delete 1 trashed session for good\?/);
      expect(screen).toMatch(/Would delete 019a0000 .*trashed one/);
    };
    await ask();
    term.keys("Enter"); // the default is no
    expect(await term.waitFor(/\[exited \d+\]/)).toContain("Nothing was deleted.\n");
    expect(term.screen()).toContain("[exited 1]");
    expect(existsSync(trashed!)).toBe(true);

    term.close();
    await ask();
    term.type("y");
    term.keys("Enter");
    expect(await term.waitFor(/\[exited \d+\]/)).toContain("Deleted 1 trashed session from this directory.");
    expect(term.screen()).toContain("[exited 0]");
    expect(existsSync(trashed!)).toBe(false);
  });

  test("du shows sessions, trash and blobs", async () => {
    writeSession(fx.project, OLD, 1, "one");
    writeSession(fx.project, NEW, 1, "two");
    mkdirSync(join(fx.sessions, ".blobs"), { recursive: true });
    writeFileSync(join(fx.sessions, ".blobs", hash("a")), "x".repeat(2000));
    await fx.run(["sessions", "rm", "019a"]);
    const run = await fx.run(["sessions", "du"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^sessions\s+\S+ ?k?B\s+1 session$/m);
    expect(run.stdout).toMatch(/^trash\s+\S+ ?k?B\s+1 session$/m);
    expect(run.stdout).toMatch(/^blobs\s+2\.0kB\s+1 file checkpoint$/m);
    const json = JSON.parse((await fx.run(["sessions", "du", "--json"])).stdout);
    expect(json).toMatchObject({ sessions: { files: 1 }, trash: { files: 1 }, blobs: { files: 1, bytes: 2000 } });
  });
});
