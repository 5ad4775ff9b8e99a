// Issue 22, item 3: what a bash call leaves running in the background ends
// with the call (its process group, and what left the group: setsid, nohup
// with disown, a double fork), unless the person approved that command
// (keepBackground). The processes are found by their command lines in /proc.
import { afterEach, describe, expect, test } from "bun:test";
import { runTool } from "../../src/tools";
import { processesWith } from "../support/processes";
import { goneSoon, tempDir } from "./helpers";

const markers: string[] = [];
afterEach(() => {
  for (const marker of markers.splice(0)) for (const pid of processesWith(marker)) process.kill(pid, "SIGKILL");
});

/** A file named after a fresh marker, for `tail -f` to follow: the marker is then in the process's command line. */
async function followed(): Promise<{ dir: string; file: string; marker: string }> {
  const dir = await tempDir();
  const marker = `awl-bg-${crypto.randomUUID()}`;
  markers.push(marker);
  await Bun.write(`${dir}/${marker}`, "");
  return { dir, file: marker, marker };
}

async function allGone(marker: string): Promise<boolean> {
  for (const pid of processesWith(marker)) if (!(await goneSoon(pid))) return false;
  return true;
}

describe("background jobs of a bash call", () => {
  for (const [how, command] of [
    ["&", (f: string) => `tail -f ${f} >/dev/null &`],
    ["setsid", (f: string) => `setsid tail -f ${f} >/dev/null 2>&1 &`],
    ["nohup and disown", (f: string) => `nohup tail -f ${f} >/dev/null 2>&1 & disown`],
    ["a double fork", (f: string) => `(tail -f ${f} >/dev/null 2>&1 &) ; true`],
  ] as const) {
    test(`${how}: ended when the call returns`, async () => {
      const { dir, file, marker } = await followed();
      const out = await runTool("bash", JSON.stringify({ command: `${command(file)}\nsleep 0.2; echo started` }), { cwd: dir, signal: new AbortController().signal });
      expect(out.content).toBe("started\nexit code: 0");
      expect(await allGone(marker)).toBe(true);
    });
  }

  test("approved by the person: it keeps running after the call returns", async () => {
    const { dir, file, marker } = await followed();
    await runTool("bash", JSON.stringify({ command: `tail -f ${file} >/dev/null & sleep 0.2` }), { cwd: dir, signal: new AbortController().signal, keepBackground: true });
    expect(processesWith(marker).length).toBeGreaterThan(0);
  });
});
