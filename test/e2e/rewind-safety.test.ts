// `awl rewind` where a rewind could do harm, with real files, a real git
// repository and a real ~ (a temporary HOME): a folder that is a link to
// ~/.ssh on another branch, a crafted session file naming absolute and `..`
// paths and a set-uid mode, and permission bits a command changed. Nothing is
// ever written outside the project, and modes come back as they were.
// Runs the compiled binary against the test server.
import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sessionFiles, useE2eFixture } from "./awl";
import { bash, git, write, type Block } from "../support/checkpoint-repo";

const fx = useE2eFixture();

const sha = (bytes: string) => createHash("sha256").update(bytes).digest("hex");
const lines = (file: string) => readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.parse(l));
const mode = (path: string) => statSync(path).mode & 0o7777;

function repository(): void {
  git(fx.project, "init", "-q", "-b", "main");
  git(fx.project, "config", "user.email", "t@example.com");
  git(fx.project, "config", "user.name", "t");
}

/** Runs one scripted turn per row with -p, resuming after the first; returns the session file and the answers' ids. */
async function turns(rows: Block[][]): Promise<{ id: string; file: string; answers: string[] }> {
  for (const [i, blocks] of rows.entries()) {
    fx.server.reply({ blocks }, { blocks: [{ type: "text", text: `done ${i + 1}` }] });
    expect((await fx.run(["-p", `turn ${i + 1}`, ...(i ? ["--resume"] : [])])).code).toBe(0);
  }
  const file = sessionFiles(fx.sessions)[0]!;
  const all = lines(file);
  const answers = rows.map((_, i) => all.find((e) => e.type === "message" && e.message.content.some((b: { text?: string }) => b.text === `done ${i + 1}`)).id);
  return { id: all[0].id, file, answers };
}

describe("a rewind stays inside the project", () => {
  test("a folder that became a link to ~/.ssh on another branch is refused by name, and ~/.ssh is untouched, even with --force", async () => {
    repository();
    const ssh = join(fx.home, ".ssh");
    mkdirSync(ssh, { mode: 0o700 });
    writeFileSync(join(ssh, "authorized_keys"), "ssh-ed25519 the person's own key\n", { mode: 0o600 });
    mkdirSync(join(fx.project, "cfg"));
    writeFileSync(join(fx.project, "cfg", "authorized_keys"), "project fixture\n");
    git(fx.project, "add", "-A");
    git(fx.project, "commit", "-qm", "start");
    // On the branch `feature`, cfg is a link to ~/.ssh.
    git(fx.project, "checkout", "-q", "-b", "feature");
    git(fx.project, "rm", "-rq", "cfg");
    symlinkSync(ssh, join(fx.project, "cfg"));
    git(fx.project, "add", "-A");
    git(fx.project, "commit", "-qm", "cfg is a link");
    git(fx.project, "checkout", "-q", "main");
    const s = await turns([[write("cfg/authorized_keys", "ssh-ed25519 the attacker's key\n")], [bash("git checkout -qf feature")]]);
    expect(lstatSync(join(fx.project, "cfg")).isSymbolicLink()).toBe(true);
    const keys = () => readFileSync(join(ssh, "authorized_keys"), "utf8");
    // The link the checkout made is removed (it was the command's), but nothing is written through it, forced or not.
    const run = await fx.run(["rewind", s.id, "--to", s.answers[0]!, "--files", "--yes", "--force"]);
    expect(run.stdout).toMatch(/cfg\/authorized_keys {2}refused: its folder cfg is a symbolic link; awl never writes through one/);
    expect(run.stdout).toMatch(/cfg {2}removed/);
    expect(run.stderr).not.toContain("--force overwrites");
    expect(keys()).toBe("ssh-ed25519 the person's own key\n");
    expect(mode(join(ssh, "authorized_keys"))).toBe(0o600);
    // With the link gone, the file the turn wrote comes back inside the project, in a folder of its own.
    const again = await fx.run(["rewind", s.id, "--to", s.answers[0]!, "--files", "--yes"]);
    expect(again.code).toBe(0);
    expect(lstatSync(join(fx.project, "cfg")).isDirectory()).toBe(true);
    expect(readFileSync(join(fx.project, "cfg", "authorized_keys"), "utf8")).toBe("ssh-ed25519 the attacker's key\n");
    expect(keys()).toBe("ssh-ed25519 the person's own key\n");
  }, 120_000);

  test("a crafted session naming absolute and `..` paths and a set-uid mode: the paths are refused by name, the mode is permission bits only", async () => {
    repository();
    const s = await turns([[bash("true")]]);
    const blobs = join(fx.sessions, ".blobs");
    mkdirSync(blobs, { recursive: true, mode: 0o700 });
    const payload = "#!/bin/sh\necho owned\n";
    writeFileSync(join(blobs, sha(payload)), payload, { mode: 0o600 });
    // Three changes on a branch the session left, then the way back to it.
    const leaf = lines(s.file).at(-1).id;
    const stamp = new Date().toISOString();
    const change = (id: string, parentId: string, path: string, extra = {}) => ({ type: "file_change", id, parentId, timestamp: stamp, path, before: null, after: sha(payload), mode: null, ...extra });
    const crafted = [
      change("c0000001", leaf, join(fx.home, ".bashrc")),
      change("c0000002", "c0000001", `${fx.project}/../outside.sh`),
      change("c0000003", "c0000002", join(fx.project, "tool.sh"), { modeAfter: 0o6777 }),
      { type: "message", id: "c0000004", parentId: "c0000003", timestamp: stamp, message: { role: "assistant", content: [{ type: "text", text: "crafted" }], provider: "anthropic", model: "m", stopReason: "stop" } },
      { type: "leaf", id: "c0000005", parentId: "c0000004", timestamp: stamp, targetId: leaf },
    ];
    writeFileSync(s.file, `${readFileSync(s.file, "utf8")}${crafted.map((e) => JSON.stringify(e)).join("\n")}\n`);
    const run = await fx.run(["rewind", s.id, "--to", "c0000004", "--files", "--yes"]);
    expect(run.stdout).toContain(`${join(fx.home, ".bashrc")}  refused: outside the project; awl writes only inside it`);
    expect(run.stdout).toMatch(/outside\.sh {2}refused: not a plain absolute path; awl writes only inside the project/);
    expect(existsSync(join(fx.home, ".bashrc"))).toBe(false);
    expect(existsSync(join(fx.root, "outside.sh"))).toBe(false);
    // Inside the project the file is written, with the permission bits and nothing more.
    expect(readFileSync(join(fx.project, "tool.sh"), "utf8")).toBe(payload);
    expect(mode(join(fx.project, "tool.sh"))).toBe(0o777);
  }, 120_000);
});

describe("modes are part of a file's state", () => {
  test("a command that only changed permission bits is undone; a removed 0600 secret comes back 0600; an executable stays executable", async () => {
    repository();
    for (const [name, bits] of [["deploy_key", 0o600], ["build.sh", 0o755], ["secret.env", 0o600]] as const) {
      writeFileSync(join(fx.project, name), `${name}\n`);
      chmodSync(join(fx.project, name), bits);
    }
    git(fx.project, "add", "deploy_key", "build.sh");
    git(fx.project, "commit", "-qm", "start");
    const s = await turns([[bash("chmod 644 deploy_key && chmod -x build.sh && rm secret.env")], [bash("chmod +x build.sh && echo more >> build.sh")]]);
    const dry = await fx.run(["rewind", s.id, "--to", s.answers[0]!, "--files", "--dry-run"]);
    expect(dry.stdout).toMatch(/build\.sh {2}\+0 -1 mode 755 → 644/);
    expect((await fx.run(["rewind", s.id, "--to", s.answers[0]!, "--files", "--yes"])).code).toBe(0);
    expect(mode(join(fx.project, "build.sh"))).toBe(0o644);
    const first = lines(s.file).find((e) => e.type === "message" && e.message.role === "user").id;
    const run = await fx.run(["rewind", s.id, "--to", first, "--files", "--yes"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/deploy_key {2}\+0 -0 mode 644 → 600/);
    expect(mode(join(fx.project, "deploy_key"))).toBe(0o600);
    expect(mode(join(fx.project, "build.sh"))).toBe(0o755);
    expect(readFileSync(join(fx.project, "secret.env"), "utf8")).toBe("secret.env\n");
    expect(mode(join(fx.project, "secret.env"))).toBe(0o600);
    // The rewinds recorded the modes they set, so each can be undone.
    expect(lines(s.file).filter((e) => e.type === "file_change" && e.path.endsWith("deploy_key")).at(-1)).toMatchObject({ mode: 0o644, modeAfter: 0o600 });
  }, 120_000);
});
