// Looking for processes a test started through awl (a tool's shell and what
// it started), by what their command lines hold: /proc, Linux only.
import { readdirSync, readFileSync } from "node:fs";

/** Pids whose command line holds `marker` (or, with `asProgramName`, whose argv[0] is it). */
export function processesWith(marker: string, asProgramName = false): number[] {
  const found: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const argv = readFileSync(`/proc/${name}/cmdline`, "utf8").split("\0");
      if (asProgramName ? argv[0] === marker : argv.some((arg) => arg.includes(marker))) found.push(Number(name));
    } catch {
      // Gone while we looked.
    }
  }
  return found;
}

/** The tool's `sleep`, started as `exec -a sleeper-<marker> sleep …`: running means the command printed its first line and is mid-way. */
export const sleeperRunning = (marker: string) => processesWith(`sleeper-${marker}`, true).length > 0;
