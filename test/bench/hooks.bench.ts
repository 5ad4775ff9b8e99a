// What a PreToolUse hook that exits at once costs a tool call: the hooks'
// whole path for one event (stdin JSON, a process group, bash -c, the
// mark, reading its output) against the floor of spawning `true`, run
// alternately in this process; medians and the difference are printed beside
// the bar (<= 15 ms over the floor).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Hooks } from "../../src/extensions/hooks/hooks";
import { median } from "./awl-process";

const RUNS = 60;
const root = mkdtempSync(join(tmpdir(), "awl-bench-hooks-"));
try {
  mkdirSync(join(root, "awl"));
  writeFileSync(join(root, "awl", "settings.json"), JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "exit 0" }] }] } }));
  const hooks = new Hooks({ sessionId: "bench", transcriptPath: join(root, "s.jsonl"), cwd: root, env: { ...process.env, XDG_CONFIG_HOME: root }, scope: { person: true, project: false } });
  const signal = new AbortController().signal;
  const floor: number[] = [];
  const hook: number[] = [];
  for (let i = 0; i <= RUNS; i++) {
    let t = performance.now();
    await Bun.spawn(["true"], { stdin: "ignore", stdout: "ignore", stderr: "ignore" }).exited;
    if (i > 0) floor.push(performance.now() - t);
    t = performance.now();
    await hooks.run("PreToolUse", { tool_name: "Bash", tool_input: { command: "ls" } }, "Bash", signal);
    if (i > 0) hook.push(performance.now() - t);
  }
  const f = median(floor);
  const h = median(hook);
  console.log(`spawn of true: median ${f.toFixed(1)} ms; PreToolUse hook "exit 0": median ${h.toFixed(1)} ms; over the floor ${(h - f).toFixed(1)} ms (bar: <= 15 ms) over ${RUNS} runs each`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
