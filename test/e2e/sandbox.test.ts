// The sandbox as a user meets it, with the real bubblewrap (.ci/run installs
// it): what a command may not write, see or reach, whatever it or the model
// asks; and where bubblewrap cannot run, one line says so before anything runs.
import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AWL, sessionFiles, useE2eFixture } from "./awl";
import { hasTmux, useTerminal } from "./tmux";
import { readLog } from "../support/session-log";

const fx = useE2eFixture();
const term = useTerminal();
// Outside the project and outside /tmp (the sandbox's /tmp is its own): a place anyone may write, bwrap aside.
const outside = `/var/tmp/awl-sandbox-test-${process.pid}-${Date.now()}`;
const bash = (command: string, extra: Record<string, unknown> = {}) => ({ type: "toolUse" as const, name: "bash", input: { command, ...extra } });
const done = { blocks: [{ type: "text" as const, text: "done" }] };

/** Each tool result of the session, in order. */
function toolResults(): string[] {
  return readLog(sessionFiles(fx.sessions)[0]!).flatMap((e) => (e.message?.content ?? []).filter((b: any) => b.type === "toolResult").map((b: any) => b.content as string));
}

const serverPort = () => new URL(fx.server.anthropicUrl).port;
const connect = () => `bash -c 'exec 3<>/dev/tcp/127.0.0.1/${serverPort()} && echo connected'`;
const usable = process.platform === "linux" && Bun.spawnSync(["bwrap", "--ro-bind", "/", "/", "--unshare-pid", "--unshare-net", "true"], { stderr: "ignore" }).exitCode === 0;

describe.skipIf(!usable)("the sandbox around bash", () => {
  test("auto: a submodule's repository under .git/modules keeps its config and hooks, nested and slash-named submodules too", async () => {
    Bun.spawnSync(["git", "init", "-q"], { cwd: fx.project });
    const gitDirs = [".git/modules/lib", ".git/modules/libs/a", ".git/modules/lib/modules/inner"];
    for (const dir of gitDirs) {
      mkdirSync(join(fx.project, dir, "hooks"), { recursive: true });
      writeFileSync(join(fx.project, dir, "config"), "[core]\n");
    }
    fx.server.reply({ blocks: [...gitDirs.flatMap((dir) => [bash(`echo hook > ${dir}/hooks/post-checkout`), bash(`echo '[core]' >> ${dir}/config`)]), bash("echo x > .git/modules/lib/HEAD")] }, done);
    const run = await fx.run(["-p", "plant hooks in the submodules"]);
    expect(run.code).toBe(0);
    const results = toolResults();
    for (const refused of results.slice(0, -1)) expect(refused).toContain("Read-only file system");
    for (const dir of gitDirs) {
      expect(existsSync(join(fx.project, dir, "hooks/post-checkout"))).toBe(false);
      expect(await Bun.file(join(fx.project, dir, "config")).text()).toBe("[core]\n");
    }
    // The rest of a submodule's repository is the project's, as the project's own .git is.
    expect(results.at(-1)).toBe("(no output)\nexit code: 0");
  });

  test("auto: writes land only in the project, never in .git/hooks, .git/config or .awl; no awl in /proc; the model cannot switch it off", async () => {
    Bun.spawnSync(["git", "init", "-q"], { cwd: fx.project });
    fx.server.reply(
      {
        blocks: [
          bash(`echo x > ${outside}`),
          bash("echo hook > .git/hooks/pre-commit"),
          bash("echo '[core]' >> .git/config"),
          bash("mkdir -p .awl && echo '{}' > .awl/settings.json"),
          bash("echo inside > made.txt"),
          bash(String.raw`for p in /proc/[0-9]*; do tr '\0' ' ' < $p/cmdline; echo; done`),
          bash(`echo x > ${outside}`, { dangerouslyDisableSandbox: true }),
          bash(`AWL_SANDBOX=off bash -c 'echo x > ${outside}'`),
          bash(connect()),
          bash("cat /proc/net/dev"),
        ],
      },
      done,
    );
    const run = await fx.run(["-p", "try everything"]);
    expect(run.code).toBe(0);
    const [home, hook, config, awl, made, proc, disable, env, network, netDev] = toolResults();

    expect(home).toContain("Read-only file system");
    expect(home).toContain("Note: this command ran inside awl's sandbox");
    expect(existsSync(outside)).toBe(false);
    for (const refused of [hook, config, awl]) expect(refused).toContain("Read-only file system");
    expect(existsSync(join(fx.project, ".git/hooks/pre-commit"))).toBe(false);
    expect(await Bun.file(join(fx.project, ".git/config")).text()).not.toContain("[core]\n[core]");
    expect(existsSync(join(fx.project, ".awl"))).toBe(false); // the read-only stand-in is gone again
    expect(made).toBe("(no output)\nexit code: 0");
    expect(await Bun.file(join(fx.project, "made.txt")).text()).toBe("inside\n");

    // The sandbox's own processes only: neither awl nor anything else of the person's.
    expect(proc).toContain("bash");
    expect(proc).not.toContain(AWL);
    expect(proc).not.toContain("-p try everything");

    expect(disable).toContain("dangerouslyDisableSandbox");
    expect(env).toContain("Read-only file system");
    expect(existsSync(outside)).toBe(false);

    // A command auto ran has the network; `cat`, judged read-only, ran in a namespace with loopback alone.
    expect(network).toContain("connected");
    const interfaces = netDev!.split("\n").filter((l) => /^ *\w+:/.test(l) && !l.startsWith("exit code")).map((l) => l.split(":")[0]!.trim());
    expect(interfaces).toEqual(["lo"]);
  });

  test("--sandbox-network off: a connection to a local port is refused, and the model is told why", async () => {
    fx.server.reply({ blocks: [bash(connect())] }, done);
    const run = await fx.run(["-p", "connect", "--sandbox-network", "off"]);
    expect(run.code).toBe(0);
    const [result] = toolResults();
    expect(result).not.toContain("connected");
    expect(result).toContain("a connection was refused (no network), probably by the sandbox");
  });

  test("the person's settings add a writable folder and take the network away; the project's .awl/settings.json does nothing; a wrong one is one line", async () => {
    const cache = join(fx.root, "cache");
    mkdirSync(cache);
    const config = join(fx.root, "config");
    mkdirSync(join(config, "awl"), { recursive: true });
    writeFileSync(join(config, "awl", "settings.json"), JSON.stringify({ sandbox: { writable: [cache], network: false } }));
    mkdirSync(join(fx.project, ".awl"));
    writeFileSync(join(fx.project, ".awl", "settings.json"), JSON.stringify({ sandbox: { writable: ["/var/tmp"], network: true } }));
    fx.server.reply({ blocks: [bash(`echo cached > ${cache}/made`), bash(connect()), bash(`echo x > ${outside}`)] }, done);
    const run = await fx.run(["-p", "use the cache"], { env: { XDG_CONFIG_HOME: config } });
    expect(run.code).toBe(0);
    const [cached, network, elsewhere] = toolResults();
    expect(cached).toBe("(no output)\nexit code: 0");
    expect(await Bun.file(join(cache, "made")).text()).toBe("cached\n");
    expect(network).toContain("a connection was refused (no network)");
    expect(elsewhere).toContain("Read-only file system");
    expect(existsSync(outside)).toBe(false);

    writeFileSync(join(config, "awl", "settings.json"), JSON.stringify({ sandbox: { writable: "~/.cache" } }));
    const wrong = await fx.run(["-p", "hello"], { env: { XDG_CONFIG_HOME: config } });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr.trim()).toBe(`awl: ${join(config, "awl", "settings.json")}: "sandbox.writable" must be a list of paths (see docs/sandbox.md)`);
  });

  test("the project folder is $HOME: -p does not make it writable, and says why", async () => {
    fx.server.reply({ blocks: [bash("echo x > f.txt"), bash("ls -a")] }, done);
    const run = await fx.run(["-p", "write here"], { cwd: fx.home });
    expect(run.code).toBe(0);
    const [write, list] = toolResults();
    expect(write).toContain("Not run: this tool call needs the user's approval");
    expect(write).toContain("is your home folder, which the sandbox would make writable");
    expect(existsSync(join(fx.home, "f.txt"))).toBe(false);
    expect(list).toContain(".keep"); // a read-only command still runs, without a writable root
  });
});

describe.skipIf(!usable || !hasTmux)("the sandbox in the REPL (--approve ask)", () => {
  test("the banner and /session name it; an approved command it refused is offered once more, outside, with the reason", async () => {
    fx.server.reply({ blocks: [bash(`echo x > ${outside}`)] }, { blocks: [{ type: "text", text: "Written." }] });
    const env = Object.fromEntries(Object.entries(fx.env).filter(([k]) => k !== "AWL_APPROVE"));
    term.start([AWL], { cwd: fx.project, env, width: 200 });
    expect(await term.waitFor(/\/help for commands/)).toContain("sandbox: workspace-write");
    term.type("write it");
    term.keys("Enter");
    await term.waitFor(/Run it\?/);
    term.type("y");
    const again = await term.waitFor(/asked because it failed in the sandbox/);
    expect(again).toContain("a write was refused (read-only file system)): yes runs it again outside the sandbox");
    expect(existsSync(outside)).toBe(false);
    term.type("y");
    await term.waitFor(/Written\./);
    expect(await Bun.file(outside).text()).toBe("x\n");
    rmSync(outside);
    term.type("/session");
    term.keys("Enter");
    await term.waitFor(/Sandbox +workspace-write[\s\S]*›\s*$/); // the prompt is back: keys typed before it may be lost to the terminal's cooked mode
    term.keys("C-d");
    await term.waitFor(/\[exited 0\]/);
  });
});

describe.skipIf(process.platform !== "linux")("where bubblewrap cannot run", () => {
  test("one line at start says the sandbox is off, why and how to fix it; --sandbox off silences it", async () => {
    const bin = join(fx.root, "bin");
    mkdirSync(bin);
    writeFileSync(join(bin, "bwrap"), "#!/bin/sh\necho 'bwrap: No permissions to create new namespace' >&2\nexit 1\n");
    chmodSync(join(bin, "bwrap"), 0o755);
    const PATH = `${bin}:${fx.env.PATH}`;
    fx.server.reply({ blocks: [bash('echo x > "$HOME/outside.txt"')] }, done);
    const run = await fx.run(["-p", "write outside"], { env: { PATH } });
    expect(run.code).toBe(0);
    const said = run.stderr.split("\n").filter((l) => l.includes("sandbox"));
    expect(said).toEqual([expect.stringContaining("The sandbox is off: bwrap cannot make its namespaces here (No permissions to create new namespace); allow unprivileged user namespaces")]);
    // Approvals alone guard commands now: auto ran it, outside any sandbox.
    expect(existsSync(join(fx.home, "outside.txt"))).toBe(true);

    fx.server.reply(done);
    const quiet = await fx.run(["-p", "hello", "--sandbox", "off"], { env: { PATH } });
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).not.toContain("sandbox");
  });

  test("bwrap missing from PATH: the line says it is not installed and how to install it", async () => {
    // A PATH with bash and git, and no bwrap.
    const bin = join(fx.root, "bin");
    mkdirSync(bin);
    for (const program of ["bash", "git"]) symlinkSync(Bun.which(program)!, join(bin, program));
    fx.server.reply(done);
    const run = await fx.run(["-p", "hello"], { env: { PATH: bin } });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("The sandbox is off: bubblewrap (bwrap) is not installed; install it (Debian, Ubuntu: apt install bubblewrap;");
  });
});
