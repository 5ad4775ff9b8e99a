// The compiled awl run as a benchmark subject: its time to the first request
// the test server sees, and its peak RSS (VmHWM from /proc, read when that
// request arrives and polled until it exits). Shared by scale.bench.ts and
// compaction.bench.ts, with the world it runs in (benchWorld).
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { encodeCwd } from "../../src/session";
import { AWL, ensureBuilt } from "../e2e/awl";
import { startTestServer, type TestServer } from "../support/server";

export const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;
export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** VmHWM (peak RSS) of a live process in bytes, or undefined once it is gone. */
export function vmHwm(pid: number): number | undefined {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

export interface Sample {
  /** Start to the request's headers at the server: awl's own work. */
  toRequestMs: number;
  /** Start to its body read whole by the test server: adds the upload (a large body is serialized while it uploads). */
  toBodyMs: number;
  totalMs: number;
  rssAtRequest: number;
  peakRss: number;
  bodyBytes: number;
  code: number;
  /** Bun.serve refuses bodies over 128 MB with a 413 before the test server sees them (the real API's limit is lower still). */
  refused?: string;
}

/** Runs awl with `args` in `cwd`, answering its first request with a 400 so it ends there. */
export async function runToFirstRequest(server: TestServer, env: Record<string, string>, cwd: string, args: string[]): Promise<Sample> {
  let pid = 0;
  let arrived: { ms: number; bodyMs: number; rss: number; bytes: number } | undefined;
  const start = performance.now();
  server.onRequest = (request) => {
    arrived = { ms: request.headersAt - start, bodyMs: request.bodyAt - start, rss: vmHwm(pid) ?? 0, bytes: Buffer.byteLength(request.rawBody) };
  };
  server.reply({ fault: { status: 400, message: "bench: stop here" } });
  const child = Bun.spawn([AWL, ...args], { cwd, env, stdin: "ignore", stdout: "ignore", stderr: "pipe" });
  pid = child.pid;
  let peak = 0;
  const poll = setInterval(() => (peak = Math.max(peak, vmHwm(pid) ?? 0)), 10);
  const [stderr, code] = await Promise.all([new Response(child.stderr).text(), child.exited]);
  clearInterval(poll);
  server.onRequest = undefined;
  if (!arrived && /\(413\)/.test(stderr)) {
    const ms = performance.now() - start;
    return { toRequestMs: ms, toBodyMs: ms, totalMs: ms, rssAtRequest: peak, peakRss: peak, bodyBytes: Number.NaN, code, refused: stderr.trim() };
  }
  if (!arrived) throw new Error(`awl sent no request (exit ${code}): ${stderr}`);
  return { toRequestMs: arrived.ms, toBodyMs: arrived.bodyMs, totalMs: performance.now() - start, rssAtRequest: arrived.rss, peakRss: Math.max(peak, arrived.rss), bodyBytes: arrived.bytes, code };
}

/** Peak RSS and time of one run to completion. */
export async function runPlain(env: Record<string, string>, cwd: string, args: string[]): Promise<{ ms: number; peakRss: number; stdout: string }> {
  const start = performance.now();
  const child = Bun.spawn([AWL, ...args], { cwd, env, stdin: "ignore", stdout: "pipe", stderr: "inherit" });
  let peak = 0;
  const poll = setInterval(() => (peak = Math.max(peak, vmHwm(child.pid) ?? 0)), 5);
  const [stdout] = await Promise.all([new Response(child.stdout).text(), child.exited]);
  clearInterval(poll);
  return { ms: performance.now() - start, peakRss: peak, stdout };
}

/**
 * A place for the compiled awl to run: a lenient test server, a temporary
 * root with its session directory and HOME, the environment pointing awl at
 * them (`extraEnv` on top), and project folders with their session folder made.
 */
export async function benchWorld(name: string, extraEnv: Record<string, string> = {}) {
  ensureBuilt();
  const server = await startTestServer({ strict: false });
  const root = mkdtempSync(join(tmpdir(), `awl-bench-${name}-`));
  const sessions = join(root, "sessions");
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: root,
    AWL_SESSION_DIR: sessions,
    ANTHROPIC_API_KEY: server.anthropicKey,
    ANTHROPIC_BASE_URL: server.anthropicUrl,
    AWL_RETRY_BASE_MS: "5",
    ...extraEnv,
  };
  return {
    server,
    root,
    env,
    /** A project folder and its session folder. */
    project(folder: string): { cwd: string; dir: string } {
      const cwd = join(root, folder);
      mkdirSync(cwd, { recursive: true });
      const dir = join(sessions, encodeCwd(cwd));
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      return { cwd, dir };
    },
    async cleanup() {
      await server.stop();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
