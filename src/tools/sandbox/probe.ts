// Whether bubblewrap can run here: looked at once per process, at start (a
// few milliseconds; while the model's catalogue loads), by running `true`
// inside the same kind of sandbox commands get. The answer names what is
// missing and how to fix it.

export type Probe = { ok: true; bwrap: string } | { ok: false; reason: string; fix?: string };

let probed: Promise<Probe> | undefined;

/** bwrap found on PATH and able to make the namespaces commands run in; never rejects. */
export function probeSandbox(env: Record<string, string | undefined> = process.env): Promise<Probe> {
  return (probed ??= probe(env));
}

async function probe(env: Record<string, string | undefined>): Promise<Probe> {
  if (process.platform !== "linux") return { ok: false, reason: `awl's sandbox is built on Linux's bubblewrap, and this is ${process.platform}` };
  const bwrap = Bun.which("bwrap", { PATH: env.PATH ?? "" });
  if (!bwrap) return { ok: false, reason: "bubblewrap (bwrap) is not installed", fix: "install it (Debian, Ubuntu: apt install bubblewrap; Fedora: dnf install bubblewrap)" };
  try {
    const run = Bun.spawn([bwrap, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-pid", "--unshare-net", "--new-session", "--die-with-parent", "--cap-drop", "ALL", "--", "true"], {
      stdin: "ignore",
      stdout: "ignore",
      stderr: "pipe",
      env: { PATH: env.PATH ?? "" },
    });
    const [code, stderr] = await Promise.all([run.exited, new Response(run.stderr).text()]);
    if (code === 0) return { ok: true, bwrap };
    const said = stderr.trim().split("\n")[0]?.replace(/^bwrap: /, "") || `it exited with ${run.exitCode ?? run.signalCode}`;
    return { ok: false, reason: `bwrap cannot make its namespaces here (${said})`, fix: "allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1; on Ubuntu, kernel.apparmor_restrict_unprivileged_userns=0 or an AppArmor profile for bwrap)" };
  } catch (error) {
    return { ok: false, reason: `bwrap could not be run (${error instanceof Error ? error.message : String(error)})`, fix: "check that bwrap on PATH is bubblewrap" };
  }
}
