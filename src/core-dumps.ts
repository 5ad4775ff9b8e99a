// No core dumps. A core file is the process's memory written to disk (often
// into the project directory), API keys and the whole conversation included:
// one SIGQUIT wrote a 6.4 GB core holding the key four times. awl sets its
// own core-file limit to 0 before anything else runs.
//
// Bun has no process.setrlimit, so libc's getrlimit/setrlimit are called
// through bun:ffi (works in the compiled binary; ~0.3 ms). Only the soft limit
// is lowered: the hard limit stays, so a command a tool runs may still raise
// its own limit to debug a crash of its own program. prctl(PR_SET_DUMPABLE, 0)
// would also forbid strace/gdb and make /proc/self root-owned, so it is not used.
//
// Where ffi or libc is unavailable (another OS, a libc under another name,
// ffi disabled), awl runs on without it: the person can do nothing about it
// and `ulimit -c 0` in their shell does the same.

/** RLIMIT_CORE on Linux (x86-64, arm64) and macOS; both have a 64-bit rlim_t. */
const RLIMIT_CORE = 4;

const LIBC: Partial<Record<NodeJS.Platform, string[]>> = {
  linux: ["libc.so.6", `libc.musl-${process.arch === "arm64" ? "aarch64" : "x86_64"}.so.1`],
  darwin: ["libSystem.B.dylib"],
};

export function disableCoreDumps(): void {
  try {
    // Required here, not imported: a missing bun:ffi must not stop awl from starting.
    const { dlopen, FFIType, ptr } = require("bun:ffi") as typeof import("bun:ffi");
    const signature = { args: [FFIType.i32, FFIType.ptr], returns: FFIType.i32 } as const;
    for (const name of LIBC[process.platform] ?? []) {
      let lib;
      try {
        lib = dlopen(name, { getrlimit: signature, setrlimit: signature });
      } catch {
        continue; // not this libc
      }
      try {
        const limit = new BigUint64Array(2); // struct rlimit { rlim_cur, rlim_max }
        if (lib.symbols.getrlimit(RLIMIT_CORE, ptr(limit)) !== 0) return;
        if (limit[0] === 0n) return;
        limit[0] = 0n;
        lib.symbols.setrlimit(RLIMIT_CORE, ptr(limit));
      } finally {
        lib.close();
      }
      return;
    }
  } catch {
    // No ffi here: see above.
  }
}
