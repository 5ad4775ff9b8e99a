// Each test gets a fresh temporary directory as the session cwd.

import { afterEach } from "bun:test";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { providerSecrets } from "../../src/providers/registry";
import { runTool } from "../../src/tools";
import type { ToolOutput } from "../../src/tools/tool";

const dirs: string[] = [];

afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

export async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "awl-tools-"));
  dirs.push(dir);
  return dir;
}

/** Runs a tool the way the agent does: by name, with the model's raw JSON, handed the provider keys set in the environment. */
export function call(name: string, input: unknown, cwd: string, signal = new AbortController().signal): Promise<ToolOutput> {
  return runTool(name, JSON.stringify(input), { cwd, signal, secrets: providerSecrets(process.env) });
}

/** A process that exited but was not reaped yet (a zombie) counts as gone. */
export async function isAlive(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = await Bun.file(`/proc/${pid}/stat`).text().catch(() => "");
  return stat !== "" && !/^\d+ \(.*\) Z/.test(stat);
}

/** SIGKILL lands asynchronously; give the kernel a moment before concluding. */
export async function goneSoon(pid: number): Promise<boolean> {
  for (let i = 0; i < 50; i++) {
    if (!(await isAlive(pid))) return true;
    await Bun.sleep(20);
  }
  return false;
}
