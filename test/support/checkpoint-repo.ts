// The git repository the file-checkpoint tests work in (tracked files, an
// ignored build folder and log, one untracked file), and the two views of it
// they compare: every file a rewind answers for, and every file under .git,
// which awl must never change; and the tool calls their sessions make.
import { createHash } from "node:crypto";
import { lstatSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";

/** The tool calls the scripted sessions make. */
export type Block = { type: "toolUse"; name: string; input: Record<string, unknown> };
export const bash = (command: string): Block => ({ type: "toolUse", name: "bash", input: { command } });
export const edit = (path: string, oldText: string, newText: string): Block => ({ type: "toolUse", name: "edit", input: { path, oldText, newText } });
export const write = (path: string, content: string): Block => ({ type: "toolUse", name: "write", input: { path, content } });

export const sha = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

export function git(root: string, ...args: string[]): string {
  const proc = Bun.spawnSync(["git", ...args], { cwd: root, env: { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" } });
  if (proc.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${proc.stderr.toString()}`);
  return proc.stdout.toString();
}

/** a.txt, b.txt and src/c.txt committed; build/ and *.log ignored; notes.txt untracked. */
export async function makeRepository(root: string): Promise<void> {
  git(root, "init", "-q");
  git(root, "config", "user.email", "t@example.com");
  git(root, "config", "user.name", "t");
  writeFileSync(join(root, "a.txt"), "alpha\nbeta\n");
  writeFileSync(join(root, "b.txt"), "one\ntwo\n");
  await Bun.write(join(root, "src", "c.txt"), "see\n");
  writeFileSync(join(root, ".gitignore"), "build/\n*.log\n");
  git(root, "add", "-A");
  git(root, "commit", "-qm", "start");
  writeFileSync(join(root, "notes.txt"), "mine, untracked\n");
}

/** Every file under `root` but .git and what the repository ignores: path -> "sha256 mode". */
export function projectFiles(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const visit = (d: string) => {
    for (const name of readdirSync(d)) {
      const full = join(d, name);
      const rel = relative(root, full);
      if (name === ".git" || rel === "build" || rel.endsWith(".log")) continue;
      if (lstatSync(full).isDirectory()) visit(full);
      else out.set(rel, `${sha(readFileSync(full))} ${statSync(full).mode & 0o777}`);
    }
  };
  visit(root);
  return out;
}

/** Every file under `root`/.git, path -> sha256. */
export function gitFiles(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const visit = (d: string) => {
    for (const name of readdirSync(d)) {
      const full = join(d, name);
      if (lstatSync(full).isDirectory()) visit(full);
      else out.set(relative(root, full), sha(readFileSync(full)));
    }
  };
  visit(join(root, ".git"));
  return out;
}

/** Contents only (the mode is checked where a rewind restores it). */
export const contents = (t: Map<string, string>) => new Map([...t].map(([k, v]) => [k, v.split(" ")[0]!]));
