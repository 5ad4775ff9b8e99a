// Runs the compiled executable, as users do. Builds it first when it is missing
// or stale (CI builds it before the tests; a local `bun test` may not have).
import { afterEach, beforeEach } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestServer, type TestServerOptions } from "../support/server";

export const AWL = join(import.meta.dir, "../../dist/awl");

const SRC = join(import.meta.dir, "../../src");

/** Builds dist/awl when it is missing or older than any source file. */
export function ensureBuilt(): void {
  if (existsSync(AWL)) {
    const built = statSync(AWL).mtimeMs;
    const sources = readdirSync(SRC, { recursive: true, encoding: "utf8" });
    if (sources.every((f) => statSync(join(SRC, f)).mtimeMs <= built)) return;
  }
  // Test files run side by side (bun test --parallel): under one lock, the first builds and the others find it fresh.
  const root = join(import.meta.dir, "../..");
  const buildIfStale = 'if [ ! -e dist/awl ] || [ -n "$(find src -newer dist/awl -print -quit)" ]; then bun run build; fi';
  const build = Bun.spawnSync(["flock", join(tmpdir(), "awl-test-build.lock"), "sh", "-c", buildIfStale], { cwd: root, stdout: "pipe", stderr: "pipe" });
  if (build.exitCode !== 0) throw new Error(`build failed: ${build.stderr.toString()}`);
}

/** Every session file below root, sorted (none when root does not exist). */
export function sessionFiles(root: string): string[] {
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".jsonl"))
    .map((f) => join(root, f))
    .sort();
}

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** A temporary world: project dir, session root, HOME, and a strict test server. */
export async function e2eFixture(options: TestServerOptions = {}) {
  ensureBuilt();
  const server = await startTestServer(options);
  const root = mkdtempSync(join(tmpdir(), "awl-e2e-"));
  const project = join(root, "project");
  const home = join(root, "home");
  const sessions = join(root, "sessions");
  await Bun.write(join(project, ".keep"), "");
  await Bun.write(join(home, ".keep"), "");
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: home,
    AWL_SESSION_DIR: sessions,
    ANTHROPIC_API_KEY: server.anthropicKey,
    ANTHROPIC_BASE_URL: server.anthropicUrl,
    OPENAI_API_KEY: server.openaiKey,
    OPENAI_BASE_URL: server.openaiUrl,
    AWL_RETRY_BASE_MS: "5",
    TZ: "UTC",
    // The REPL asks before a tool acts; tests that are not about that let tools run, as -p does.
    // test/e2e/approval.test.ts takes it out to test the default.
    AWL_APPROVE: "auto",
    // The REPL asks a model for a session title after the first answer: one more request than most tests script.
    // test/e2e/titles.test.ts takes it out to test titles.
    AWL_TITLES: "off",
  };
  return {
    server,
    root,
    project,
    home,
    sessions,
    env,
    /** Runs dist/awl to completion; `prefix` wraps it (e.g. `prlimit --fsize=N`, `setpriv ...`). */
    async run(args: string[], options: { cwd?: string; env?: Record<string, string | undefined>; stdin?: string; prefix?: string[] } = {}): Promise<Run> {
      const child = Bun.spawn([...(options.prefix ?? []), AWL, ...args], {
        cwd: options.cwd ?? project,
        env: { ...env, ...options.env } as Record<string, string>,
        stdin: options.stdin === undefined ? "ignore" : new TextEncoder().encode(options.stdin),
        stdout: "pipe",
        stderr: "pipe",
      });
      const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
      return { code, stdout, stderr };
    },
    /** Puts `files` (name → source) in the person's extensions folder, under a config folder of the fixture's; the environment that points awl there. */
    installExtensions(files: Record<string, string>): Record<string, string> {
      const config = join(root, "config");
      const dir = join(config, "awl", "extensions");
      mkdirSync(dir, { recursive: true });
      for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
      return { XDG_CONFIG_HOME: config };
    },
    async cleanup() {
      await server.stop();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

export type E2eFixture = Awaited<ReturnType<typeof e2eFixture>>;

/**
 * A fresh fixture for each test of the calling file (made before it, cleaned
 * up after it). The object returned stays the same; what it holds is each
 * test's own.
 */
export function useE2eFixture(options: TestServerOptions = {}): E2eFixture {
  const fx = {} as E2eFixture;
  beforeEach(async () => {
    Object.assign(fx, await e2eFixture(options));
  });
  afterEach(async () => {
    await fx.cleanup();
  });
  return fx;
}
