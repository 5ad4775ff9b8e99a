// The keys out of /proc/<awl>/environ. On Linux that file shows a process's
// ORIGINAL environment block, the strings the kernel put on its stack at
// exec, whatever the process did to its environment since (unsetenv changes
// libc's table, not those bytes). Any process of the same user can read it,
// and root any process's: a read-only `grep` run from bash (awl's child) could
// read awl's keys back from there. So, once Bun has copied the environment
// into process.env, awl overwrites the value of every variable bash does not
// get (the providers' key variables, from their table, and the secret-named
// ones, bash-env.ts) with `*` in that block, in place: the file then shows
// `<KEY VARIABLE>=****…`, and process.env keeps the values awl needs.
//
// The block's bounds are fields 50 and 51 (env_start, env_end) of
// /proc/self/stat; the bytes are written through bun:ffi (as core-dumps.ts
// uses it). Where there is no /proc (macOS) or no ffi, there is nothing to do
// or nothing awl can do, and it runs on.

import { readFileSync } from "node:fs";
import { programEnvironment } from "./program-env";

const STAR = 0x2a;

/** Overwrites, in awl's original environment block, the value of each variable in `env` that bash does not get. */
export function hideSecretsFromProc(env: Record<string, string | undefined> = process.env): void {
  const passed = programEnvironment(env);
  const hidden = new Set(Object.keys(env).filter((name) => env[name] !== undefined && !(name in passed)));
  if (hidden.size === 0) return;
  try {
    const stat = readFileSync("/proc/self/stat", "latin1");
    // Fields after the command name (which may hold spaces): field 3 is at index 0.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const [start, end] = [Number(fields[47]), Number(fields[48])];
    if (!(start > 0 && end > start)) return;
    const { toArrayBuffer } = require("bun:ffi") as typeof import("bun:ffi");
    const block = new Uint8Array(toArrayBuffer(start as import("bun:ffi").Pointer, 0, end - start));
    let at = 0;
    while (at < block.length) {
      let stop = block.indexOf(0, at);
      if (stop === -1) stop = block.length;
      const equals = block.indexOf(0x3d, at);
      if (equals !== -1 && equals < stop && hidden.has(Buffer.from(block.subarray(at, equals)).toString("utf8"))) block.fill(STAR, equals + 1, stop);
      at = stop + 1;
    }
  } catch {
    // No /proc, no ffi: see above.
  }
}
