// Whether bubblewrap can run here: looked at once per process, on the first
// question (a few milliseconds), by running `true` inside the same kind of
// sandbox commands get. The answer names what is missing and how to fix it.

export type Probe = { ok: true; bwrap: string } | { ok: false; reason: string; fix: string };

let probed: Probe | undefined;

/** bwrap found on PATH and able to make the namespaces commands run in. */
export function probeSandbox(env: Record<string, string | undefined> = process.env): Probe {
  return (probed ??= probe(env));
}

function probe(env: Record<string, string | undefined>): Probe {
  if (process.platform !== "linux") return { ok: false, reason: `there is no sandbox for ${process.platform} yet`, fix: "commands are guarded by the approvals alone" };
  const bwrap = Bun.which("bwrap", { PATH: env.PATH ?? "" });
  if (!bwrap) return { ok: false, reason: "bubblewrap (bwrap) is not installed", fix: "install it (Debian, Ubuntu: apt install bubblewrap; Fedora: dnf install bubblewrap)" };
  try {
    const run = Bun.spawnSync([bwrap, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-pid", "--unshare-net", "--new-session", "--die-with-parent", "--cap-drop", "ALL", "--", "true"], {
      stdin: "ignore",
      stdout: "ignore",
      stderr: "pipe",
      env: { PATH: env.PATH ?? "" },
    });
    if (run.exitCode === 0) return { ok: true, bwrap };
    const said = run.stderr.toString().trim().split("\n")[0]?.replace(/^bwrap: /, "") || `it exited with ${run.exitCode ?? run.signalCode}`;
    return { ok: false, reason: `bwrap cannot make its namespaces here (${said})`, fix: "allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1; on Ubuntu, kernel.apparmor_restrict_unprivileged_userns=0 or an AppArmor profile for bwrap)" };
  } catch (error) {
    return { ok: false, reason: `bwrap could not be run (${error instanceof Error ? error.message : String(error)})`, fix: "check that bwrap on PATH is bubblewrap" };
  }
}
