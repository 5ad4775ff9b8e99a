// File checkpoint figures (issue 19). `bun run bench checkpoints`.
// 1. What tracking adds to one shell command on a 20,000-file repository (the
//    listings before and after, git's answers, the copies), against one bare
//    lstat walk of the same tree, median of RUNS. Bar: <= 2.5x.
// 2. Blob store growth over a scripted session of edits, writes and commands
//    (a build rewriting an ignored 30 MB file three times among them), against
//    the bytes of the distinct versions of the files the tools touched. Bar: <= 1.1x.
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Checkpoints } from "../../src/agent/checkpoints";
import { SessionManager } from "../../src/session";

const RUNS = 9;
const FILES = 20_000;
const root = mkdtempSync(join(tmpdir(), "awl-bench-checkpoints-"));
process.env.AWL_SESSION_DIR = join(root, "sessions");
// git's first answers on 20,000 files may take longer than awl's usual 1 s on a busy machine.
const env = { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1", AWL_GIT_TIMEOUT_MS: "60000" };

function git(cwd: string, ...args: string[]): void {
  const proc = Bun.spawnSync(["git", ...args], { cwd, env });
  if (proc.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${proc.stderr}`);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** The floor: one readdir and one lstat per entry, keeping size, mtime, ctime and inode. */
function bareWalk(dir: string): number {
  let n = 0;
  const pending = [dir];
  while (pending.length) {
    const d = pending.pop()!;
    for (const name of readdirSync(d)) {
      if (name === ".git") continue;
      const s = lstatSync(join(d, name));
      if (s.isDirectory()) pending.push(join(d, name));
      else n += s.size + s.mtimeMs + s.ctimeMs + s.ino > 0 ? 1 : 0;
    }
  }
  return n;
}

async function manifestFigures(): Promise<void> {
  const repo = join(root, "repo");
  for (let d = 0; d < FILES / 100; d++) {
    mkdirSync(join(repo, `dir${d}`), { recursive: true });
    for (let f = 0; f < 100; f++) writeFileSync(join(repo, `dir${d}`, `file${f}.txt`), `file ${d}/${f}\n`.repeat(10));
  }
  git(repo, "init", "-q");
  git(repo, "-c", "user.email=b@example.com", "-c", "user.name=b", "add", "-A");
  git(repo, "-c", "user.email=b@example.com", "-c", "user.name=b", "commit", "-qm", "tree");
  writeFileSync(join(repo, "untracked.txt"), "mine\n");
  const session = SessionManager.init({ cwd: repo, provider: "anthropic", model: "m" });
  const checkpoints = new Checkpoints(session, repo, env);
  const tracked: number[] = [];
  const bare: number[] = [];
  await checkpoints.around(async () => {}, console.log); // warm: the first call also learns what git ignores
  for (let i = 0; i < RUNS; i++) {
    let start = performance.now();
    bareWalk(repo);
    bare.push(performance.now() - start);
    start = performance.now();
    await checkpoints.around(async () => {}, console.log);
    tracked.push(performance.now() - start);
  }
  const ratio = median(tracked) / median(bare);
  console.log(`bash manifest, ${FILES.toLocaleString("en-US")} files: tracking adds ${median(tracked).toFixed(1)} ms per command (both listings, git, copies); one bare lstat walk ${median(bare).toFixed(1)} ms; ${ratio.toFixed(2)}x (bar 2.5x) ${ratio <= 2.5 ? "ok" : "OVER"}`);
  session.close();
}

async function blobFigures(): Promise<void> {
  const repo = join(root, "script");
  mkdirSync(repo, { recursive: true });
  writeFileSync(join(repo, ".gitignore"), "build/\n");
  writeFileSync(join(repo, "a.txt"), "alpha\n".repeat(1000));
  git(repo, "init", "-q");
  git(repo, "-c", "user.email=b@example.com", "-c", "user.name=b", "add", "-A");
  git(repo, "-c", "user.email=b@example.com", "-c", "user.name=b", "commit", "-qm", "start");
  writeFileSync(join(repo, "notes.txt"), "untracked notes\n".repeat(500));
  const session = SessionManager.init({ cwd: repo, provider: "anthropic", model: "m" });
  session.appendMessage({ role: "user", content: [{ type: "text", text: "go" }] }, { provider: "anthropic", model: "m" });
  const checkpoints = new Checkpoints(session, repo, env);
  const versions = new Map<string, number>(); // distinct versions of touched files: sha -> bytes
  const keep = (path: string) => {
    try {
      const bytes = readFileSync(join(repo, path));
      versions.set(new Bun.CryptoHasher("sha256").update(bytes).digest("hex"), bytes.length);
    } catch {
      // absent: no bytes
    }
  };
  const shell = async (touched: string[], command: string) => {
    await checkpoints.around(async () => void Bun.spawnSync(["bash", "-c", command], { cwd: repo }), console.log);
    for (const p of touched) keep(p);
  };
  const change = (path: string, text: string) => {
    const full = join(repo, path);
    let before: Buffer | null = null;
    try {
      before = readFileSync(full);
    } catch {}
    checkpoints.beforeChange({ path: full, before, after: Buffer.from(text), mode: null });
    writeFileSync(full, text);
    if (before) versions.set(new Bun.CryptoHasher("sha256").update(before).digest("hex"), before.length);
    keep(path);
  };
  for (let turn = 0; turn < 20; turn++) {
    if (turn % 4 === 0) change("a.txt", `alpha ${turn}\n`.repeat(1000));
    if (turn % 4 === 1) await shell(["notes.txt"], `echo turn ${turn} >> notes.txt`);
    if (turn % 4 === 2) await shell(["gen.txt"], `seq 1 ${turn * 1000} > gen.txt`);
    // The build: an ignored 30 MB file, rewritten (never tracked, never copied).
    if (turn % 7 === 3) await shell([], "mkdir -p build && head -c 31457280 /dev/urandom > build/app.bin");
    if (turn % 4 === 3) await shell(["gen.txt", "moved.txt"], "test -f gen.txt && mv gen.txt moved.txt || true");
  }
  const blobDir = join(root, "sessions", ".blobs");
  const stored = readdirSync(blobDir).reduce((n, name) => n + statSync(join(blobDir, name)).size, 0);
  const distinct = [...versions.values()].reduce((a, b) => a + b, 0);
  const ratio = stored / distinct;
  console.log(`blob store over the scripted session: ${(stored / 1024).toFixed(1)} KB stored for ${(distinct / 1024).toFixed(1)} KB of distinct versions of touched files; ${ratio.toFixed(3)}x (bar 1.1x) ${ratio <= 1.1 ? "ok" : "OVER"}; the ignored 30 MB build output, rewritten 3 times, added 0 bytes`);
  session.close();
}

try {
  await manifestFigures();
  await blobFigures();
} finally {
  rmSync(root, { recursive: true, force: true });
}
