// Issue 6, item 6: security. Permissions under umask 000, API keys never
// written or printed, hostile --resume ids, symlinked or foreign session
// files and folders refused, and a giant line rejected with bounded memory.
//
//   AWL_SECURITY_HUGE_MB=1024 bun test test/reliability/security.test.ts   (the 1 GB line; default 300 MB)
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, chownSync, closeSync, cpSync, lstatSync, mkdirSync, openSync, readFileSync, readdirSync, rmSync, statfsSync, symlinkSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { UserError } from "../../src/errors";
import { SessionManager, encodeCwd, findSession } from "../../src/session";
import { AWL, e2eFixture, type Run } from "../e2e/awl";

const HUGE_MB = Number(process.env.AWL_SECURITY_HUGE_MB ?? 300);

let fx: Awaited<ReturnType<typeof e2eFixture>>;
beforeEach(async () => {
  fx = await e2eFixture();
});
afterEach(async () => {
  await fx.cleanup();
});

const walk = (root: string): string[] => [root, ...readdirSync(root, { recursive: true, encoding: "utf8" }).map((f) => join(root, f))];
const mode = (path: string) => lstatSync(path).mode & 0o777;
const oneLine = (run: Run) => run.stderr.split("\n").filter(Boolean);
const folder = () => join(fx.sessions, encodeCwd(fx.project));
const onlySession = () => readdirSync(folder()).filter((f) => f.endsWith(".jsonl")).map((f) => join(folder(), f))[0]!;
const idOf = (file: string) => file.slice(-42, -6);

/** One turn with a tool call, so there is a session to attack. */
async function aSession(): Promise<string> {
  fx.server.reply({ blocks: [{ type: "toolUse", name: "bash", input: { command: "echo hi" } }] }, { blocks: [{ type: "text", text: "done" }] });
  const run = await fx.run(["-p", "run echo"]);
  expect(run.code).toBe(0);
  return onlySession();
}

/** Runs awl through `sh -c 'umask 000; exec awl ...'`. */
function spawnUmask000(args: string[]) {
  const quoted = args.map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ");
  return Bun.spawn(["sh", "-c", `umask 000; exec ${AWL} ${quoted}`], { cwd: fx.project, env: fx.env, stdout: "pipe", stderr: "pipe" });
}

describe("security", () => {
  test("under umask 000 every directory awl makes is 0700 and every file 0600, the lock file included", async () => {
    fx.server.reply(
      { blocks: [{ type: "toolUse", name: "bash", input: { command: "echo hi" } }] },
      // Slow enough to look at the lock file while awl holds it.
      { blocks: [{ type: "text", text: "a slow answer ".repeat(30) }], chunk: 4, delayMs: 20 },
    );
    const child = spawnUmask000(["-p", "run echo"]);
    let lockMode: number | undefined;
    while (lockMode === undefined && child.exitCode === null) {
      const lock = existsSync(fx.sessions) ? walk(fx.sessions).find((f) => f.endsWith(".lock")) : undefined;
      if (lock) lockMode = mode(lock);
      else await Bun.sleep(5);
    }
    expect(await child.exited).toBe(0);
    expect(lockMode).toBe(0o600);
    const all = walk(fx.sessions);
    const dirs = all.filter((p) => lstatSync(p).isDirectory());
    const files = all.filter((p) => !lstatSync(p).isDirectory());
    expect(dirs.map((d) => [d, mode(d).toString(8)])).toEqual(dirs.map((d) => [d, "700"]));
    expect(files.map((f) => [f, mode(f).toString(8)])).toEqual(files.map((f) => [f, "600"]));
    console.log(`security umask 000: ${dirs.length} directories 0700, ${files.length} files 0600, lock file 0${lockMode?.toString(8)}`);
  }, 60_000);

  test("API keys appear in no file awl wrote and in none of its output, also when the server rejects the key", async () => {
    const file = await aSession();
    fx.server.reply({ blocks: [{ type: "text", text: "via openai" }] });
    const outputs: Run[] = [await fx.run(["-p", "switch", "--resume", "--provider", "openai", "--model", "gpt-4o"])];
    expect(outputs[0]!.code).toBe(0);
    const wrongKey = "sk-ant-api03-WRONGwrongWRONG-secret-0123456789";
    const rejected = await fx.run(["-p", "x"], { env: { ANTHROPIC_API_KEY: wrongKey } });
    expect(rejected.code).toBe(1);
    expect(oneLine(rejected)).toHaveLength(1);
    const wrongOpenai = "sk-proj-WRONGwrongWRONG-secret-9876543210";
    const rejectedOpenai = await fx.run(["-p", "x", "--provider", "openai"], { env: { OPENAI_API_KEY: wrongOpenai } });
    expect(rejectedOpenai.code).toBe(1);
    outputs.push(rejected, rejectedOpenai);

    const keys = [fx.server.anthropicKey, fx.server.openaiKey, wrongKey, wrongOpenai];
    const written = [fx.sessions, fx.home, fx.project].flatMap(walk).filter((p) => lstatSync(p).isFile());
    expect(written).toContain(file);
    const leaks = [
      ...written.flatMap((p) => keys.filter((k) => readFileSync(p).includes(k)).map((k) => `${k} in ${p}`)),
      ...outputs.flatMap((r, i) => keys.filter((k) => r.stdout.includes(k) || r.stderr.includes(k)).map((k) => `${k} in the output of run ${i}`)),
    ];
    expect(leaks).toEqual([]);
    console.log(`security keys: ${keys.length} keys, ${written.length} files and ${outputs.length * 2} outputs searched, ${leaks.length} leaks; rejected-key message: ${rejected.stderr.trim()}`);
  }, 60_000);

  test("hostile --resume ids are refused with exit 2 and one line, and nothing outside the session folder is opened", async () => {
    const file = await aSession();
    const id = idOf(file);
    // Decoys: valid-looking sessions outside the folder, with a torn tail that
    // opening would trim (so any open shows in their bytes).
    const decoyText = `${readFileSync(file, "utf8")}{"type":"message","id":"torn`;
    const decoys = [join(fx.root, "decoy.jsonl"), join(fx.sessions, "decoy.jsonl"), join(fx.root, `2026-01-01T00-00-00-000Z_${id}.jsonl`)];
    for (const d of decoys) writeFileSync(d, decoyText);
    const hostile = ["../x", "../decoy", "a/b", "..", "../../decoy.jsonl", decoys[0]!, decoys[2]!, `${id}/../../decoy`, `../${id}`, "%2e%2e%2fdecoy", "~/x", "", " ", "*"];
    const results: string[] = [];
    for (const h of hostile) {
      const run = await fx.run(["-p", "x", "--resume", h]);
      expect({ h, code: run.code, lines: oneLine(run).length }).toEqual({ h, code: 2, lines: 1 });
      expect(run.stderr).not.toMatch(/internal error|^\s+at /m);
      results.push(run.stderr.trim());
    }
    for (const d of decoys) expect(readFileSync(d, "utf8")).toBe(decoyText);
    // NUL cannot travel in argv: the lookup itself must refuse it, like every non-id.
    for (const h of [`${id.slice(0, 8)}\0`, "\0", `../${id}`, `/${id}`, `${id.slice(0, 8)}/..`]) {
      const error = await findSession(fx.project, h, { ...fx.env }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UserError);
      expect((error as UserError).exitCode).toBe(2);
      expect((error as UserError).message).not.toContain("\n");
    }
    console.log(`security ids: ${hostile.length} hostile ids refused by the binary, 5 by findSession, ${decoys.length} decoys untouched; e.g. ${results[0]}`);
  }, 60_000);

  test("a symlinked session folder or file is refused, and nothing is written where it points", async () => {
    const file = await aSession();
    const id = idOf(file);
    const elsewhere = join(fx.root, "elsewhere");
    cpSync(folder(), elsewhere, { recursive: true });
    const target = join(elsewhere, file.slice(file.lastIndexOf("/") + 1));
    const before = readFileSync(target);

    // The folder is a symlink to elsewhere.
    rmSync(folder(), { recursive: true });
    symlinkSync(elsewhere, folder());
    const resumed = await fx.run(["-p", "x", "--resume", id]);
    expect(resumed.code).toBe(1);
    expect(oneLine(resumed)).toHaveLength(1);
    expect(resumed.stderr).toMatch(/symbolic link/);
    fx.server.reply({ blocks: [{ type: "text", text: "new" }] });
    const fresh = await fx.run(["-p", "a new session"]);
    expect(fresh.code).toBe(1);
    expect(fresh.stderr).toMatch(/symbolic link/);
    expect(readdirSync(elsewhere).sort()).toEqual([target.slice(target.lastIndexOf("/") + 1)]);
    expect(readFileSync(target)).toEqual(before);

    // The folder is real, the file is a symlink to elsewhere.
    rmSync(folder());
    mkdirSync(folder(), { mode: 0o700 });
    symlinkSync(target, file);
    const linked = await fx.run(["-p", "x", "--resume", id]);
    expect(linked.code).toBe(1);
    expect(oneLine(linked)).toHaveLength(1);
    expect(linked.stderr).toMatch(/symbolic link/);
    expect(readFileSync(target)).toEqual(before);
    const inProcess = await SessionManager.open(file).catch((e: unknown) => e);
    expect(inProcess).toBeInstanceOf(UserError);
    console.log(`security symlinks: folder link refused (${resumed.stderr.trim()}); file link refused (${linked.stderr.trim()})`);
  }, 60_000);

  test("a session file owned by another user, or writable by others, is refused and left as it was", async () => {
    const file = await aSession();
    const id = idOf(file);
    const before = readFileSync(file);
    const cases: [string, () => void][] = [
      ["owned by nobody, mode 0666", () => (chownSync(file, 65534, 65534), chmodSync(file, 0o666))],
      ["owned by nobody, mode 0600", () => (chownSync(file, 65534, 65534), chmodSync(file, 0o600))],
      ["ours, mode 0666", () => (chownSync(file, process.getuid!(), process.getgid!()), chmodSync(file, 0o666))],
      ["ours, mode 0620", () => chmodSync(file, 0o620)],
      ["folder mode 0777", () => (chmodSync(file, 0o600), chmodSync(folder(), 0o777))],
    ];
    const messages: string[] = [];
    for (const [what, arrange] of cases) {
      arrange();
      const run = await fx.run(["-p", "x", "--resume", id]);
      expect({ what, code: run.code, lines: oneLine(run).length }).toEqual({ what, code: 1, lines: 1 });
      expect(run.stderr).toMatch(/refusing/);
      expect(readFileSync(file)).toEqual(before);
      messages.push(run.stderr.trim());
    }
    chmodSync(folder(), 0o700);
    const fine = await fx.run(["-p", "x", "--resume", id]).then(async (r) => r);
    expect(fine.stderr).not.toMatch(/refusing/);
    console.log(`security ownership: ${cases.length} cases refused, e.g. ${messages[0]}`);
  }, 60_000);

  test(`a ${HUGE_MB} MB single line is rejected with a message, and peak memory stays far below it`, async () => {
    const file = await aSession();
    const free = statfsSync(fx.root);
    if (free.bavail * free.bsize < (HUGE_MB + 200) * 2 ** 20) throw new Error(`need ${HUGE_MB + 200} MB free in ${fx.root}`);
    const header = readFileSync(file, "utf8").split("\n")[0]!;
    const huge = join(folder(), "2026-01-01T00-00-00-000Z_huge.jsonl");
    const fd = openSync(huge, "w", 0o600);
    writeSync(fd, `${header}\n{"type":"message","id":"huge0001","parentId":null,"timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"user","content":[{"type":"text","text":"`);
    const piece = Buffer.alloc(8 << 20, "a");
    for (let written = 0; written < HUGE_MB << 20; written += piece.length) writeSync(fd, piece);
    writeSync(fd, '"}]}}\n');
    closeSync(fd);
    const size = lstatSync(huge).size;

    // Opened in a child, so that its peak RSS (VmHWM) is this open's alone.
    const script = `
      import { SessionManager } from ${JSON.stringify(join(import.meta.dir, "../../src/session/index.ts"))};
      import { readFileSync } from "node:fs";
      const hwm = () => Number(/VmHWM:\\s+(\\d+)/.exec(readFileSync("/proc/self/status", "utf8"))[1]) * 1024;
      const base = hwm();
      let message = "";
      try { (await SessionManager.open(${JSON.stringify(huge)})).close(); message = "loaded"; } catch (e) { message = e.constructor.name + ": " + e.message; }
      console.log(JSON.stringify({ message, base, peak: hwm() }));`;
    const child = Bun.spawn(["bun", "-e", script], { env: fx.env, stdout: "pipe", stderr: "pipe" });
    const [out, err] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text()]);
    expect({ code: await child.exited, err }).toEqual({ code: 0, err: "" });
    const { message, base, peak } = JSON.parse(out) as { message: string; base: number; peak: number };
    expect(message).toBe(`DamagedLog: ${huge}:2: the line is longer than 64 MB, more than any session line awl writes`);
    expect(readFileSync(huge).length).toBe(size);
    // Bounded by the 64 MB line limit (plus a 4 MB chunk and the runtime), not by the line.
    expect(peak - base).toBeLessThan(160 * 2 ** 20);

    const listed = await fx.run(["sessions", "--json"]);
    expect(listed.code).toBe(0);
    const row = (JSON.parse(listed.stdout) as { path: string; damaged?: string }[]).find((r) => r.path === huge);
    expect(row?.damaged).toMatch(/longer than 64 MB/);
    console.log(`security huge line: ${(size / 2 ** 20).toFixed(0)} MB file, open rejected it (${message.slice(message.indexOf(":2:") + 1)}), peak RSS ${(peak / 2 ** 20).toFixed(0)} MB (${((peak - base) / 2 ** 20).toFixed(0)} MB above the child's start)`);
  }, 120_000);
});
