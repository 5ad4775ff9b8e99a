// Read-only means read-only, against the real git and rg: a repository (and a
// submodule, with its own configuration) plants a marker program in every
// hook git and rg can reach (clean/smudge/process filters, diff drivers,
// textconv, merge drivers, fsmonitor, hooks, the pager, an external diff,
// rg --pre, decompressors for rg -z), and every command of a corpus that the
// policy lets run unasked runs as awl would run it (guarded) through real
// bash. No marker may fire. The option tables are checked against the
// installed programs' own lists.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Approvals } from "../../src/agent/approval";
import { GIT_TABLES, RG_TABLE } from "../../src/agent/option-tables";
import { checkCall } from "../../src/tools";

const hasRg = Bun.which("rg") !== null;

let dir: string;
let repo: string;
let marker: string;
let env: Record<string, string>;

function sh(command: string, cwd = repo, extra: Record<string, string> = {}) {
  const r = Bun.spawnSync(["bash", "-c", command], { cwd, env: { ...env, ...extra }, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  return { code: r.exitCode, out: r.stdout.toString(), err: r.stderr.toString() };
}
function must(command: string, cwd = repo) {
  const r = sh(command, cwd);
  if (r.code !== 0) throw new Error(`${command}: ${r.err}`);
}
const fired = () => (existsSync(marker) ? readFileSync(marker, "utf8") : "");

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "awl-hooks-"));
  repo = join(dir, "repo");
  marker = join(dir, "fired");
  const bin = join(dir, "bin");
  mkdirSync(bin);
  const evil = join(dir, "evil");
  writeFileSync(evil, `#!/bin/sh\necho "$(basename "$0") $*" >> '${marker}'\ncat 2>/dev/null\nexit 0\n`);
  chmodSync(evil, 0o755);
  // Programs git and rg find on PATH: the pager, and rg -z's decompressors.
  for (const name of ["less", "more", "gzip", "bzip2", "xz", "lz4", "zstd", "brotli", "uncompress"]) symlinkSync(evil, join(bin, name));
  env = { PATH: `${bin}:${process.env.PATH}`, HOME: dir, GIT_CONFIG_NOSYSTEM: "1", GIT_AUTHOR_NAME: "A", GIT_AUTHOR_EMAIL: "a@example.com", GIT_COMMITTER_NAME: "A", GIT_COMMITTER_EMAIL: "a@example.com", LANG: "C" };

  // The submodule's own repository.
  const subsrc = join(dir, "subsrc");
  must(`git init -q ${subsrc} && cd ${subsrc} && echo one > b.txt && git add . && git commit -qm sub`, dir);
  // The repository: a merge with a conflict (for re-merging), then the submodule.
  must(`git init -q ${repo}`, dir);
  must("printf 'line\\n' > a.txt && echo 'x' > notes.md && git add . && git commit -qm first");
  must("git checkout -qb side && printf 'side\\n' > a.txt && git commit -qam side && git checkout -q - && printf 'main\\n' > a.txt && git commit -qam main");
  must("git merge -q side >/dev/null 2>&1; printf 'merged\\n' > a.txt && git add a.txt && git commit -qm merge");
  must(`git -c protocol.file.allow=always submodule add -q ${subsrc} sub >/dev/null 2>&1 && git commit -qm 'add sub'`);
  must("printf 'hello foo\\n' | gzip -c > data.gz 2>/dev/null || true");

  // Now the hooks, in the repository's own configuration and attributes...
  writeFileSync(join(repo, ".gitattributes"), "*.txt filter=evil diff=evil merge=evil\n");
  const hooks = join(dir, "hooks");
  mkdirSync(hooks);
  for (const hook of ["post-index-change", "post-checkout", "pre-commit", "reference-transaction"]) symlinkSync(evil, join(hooks, hook));
  for (const [key, value] of [
    ["core.fsmonitor", `${evil} fsmonitor`],
    ["core.hooksPath", hooks],
    ["filter.evil.clean", `${evil} clean`],
    ["filter.evil.smudge", `${evil} smudge`],
    ["filter.evil.process", `${evil} process`],
    ["diff.evil.textconv", `${evil} textconv`],
    ["diff.evil.command", `${evil} diff-command`],
    ["merge.evil.driver", `${evil} merge-driver %O %A %B`],
    ["diff.external", `${evil} external`],
    ["core.pager", `${evil} pager`],
    ["pager.log", `${evil} pager-log`],
    ["pager.diff", `${evil} pager-diff`],
    ["pager.show", `${evil} pager-show`],
    ["pager.status", `${evil} pager-status`],
    ["log.diffMerges", "remerge"],
    ["diff.submodule", "diff"],
    ["status.submoduleSummary", "true"],
    ["submodule.recurse", "true"],
    ["gpg.program", `${evil} gpg`],
    ["log.showSignature", "true"],
  ]) must(`git config '${key}' '${value}'`);
  // ...and in the submodule's, which git's -c on the command line does not reach.
  const subConfig = `git --git-dir=${join(repo, ".git", "modules", "sub")} config`;
  must(`${subConfig} core.fsmonitor '${evil} sub-fsmonitor' && ${subConfig} filter.subevil.clean '${evil} sub-clean' && ${subConfig} diff.subevil.textconv '${evil} sub-textconv' && ${subConfig} core.pager '${evil} sub-pager'`);
  writeFileSync(join(repo, "sub", ".gitattributes"), "*.txt filter=subevil diff=subevil\n");
  // Changes in both working trees, so that status and diff look at the files.
  writeFileSync(join(repo, "a.txt"), "changed\n");
  writeFileSync(join(repo, "sub", "b.txt"), "changed\n");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const GIT_CORPUS = [
  "git status", "git status -s", "git status --porcelain=v2", "git status -uall", "git status --ignore-submodules=none",
  "git diff", "git diff --stat", "git diff HEAD~1", "git diff --cached", "git diff -- a.txt", "git diff --submodule=diff", "git diff --submodule",
  "git diff --ext-diff", "git diff --textconv", "git diff --ext", "git diff --no-index -S -- --output=out a.txt notes.md",
  "git diff --no-index a.txt notes.md", "git diff -S -- --ext-diff",
  "git log -p", "git log -p -1 -m", "git log --stat", "git log -p --follow a.txt", "git log --diff-merges=remerge -p", "git log --diff-merges remerge -p",
  "git log --author -- --output=out", "git log -n -- --ext-diff -p", "git log --show-signature", "git --no-pager log -p -2",
  "git show", "git show HEAD", "git show -m HEAD", "git show -m HEAD~1", "git show HEAD~1", "git show HEAD:a.txt", "git show --remerge-diff HEAD", "git show --remerge HEAD",
  "git -C sub status", "git -C sub diff", "git -C sub log -p", "git diff | head -5; git status",
];
const RG_CORPUS = [
  "rg foo", "rg -n line .", "rg -z foo", "rg --search-zip foo", "rg -uuu foo", "rg --pre=EVIL foo", "rg --pre EVIL foo",
  "rg -e -- --pre=EVIL foo", "rg -ie -- --pre EVIL", "rg -e foo -- --pre=EVIL", "rg -e x --pre EVIL", "rg -ez foo", "rg -g '*.gz' foo",
  "rg --hostname-bin=EVIL foo", "rg -e foo --search-z",
];

/** What the commands runAllowed ran printed, by the command as written. */
const outputs = new Map<string, { code: number | null; out: string; err: string }>();

/** Runs each command of the corpus that the policy lets run unasked, as awl would run it; returns those it ran. */
async function runAllowed(corpus: string[]): Promise<string[]> {
  const ran: string[] = [];
  for (const written of corpus) {
    const command = written.replaceAll("EVIL", join(dir, "evil"));
    const decision = await new Approvals("read-only", env).decide(checkCall("bash", JSON.stringify({ command })), repo);
    if (decision.action !== "run") continue;
    outputs.set(written, sh((decision.call as { input: { command: string } }).input.command));
    ran.push(written);
  }
  return ran;
}

describe("hooks planted everywhere git and rg can reach", () => {
  test("unguarded, they really fire: the repository's and the submodule's (the test's premise)", () => {
    rmSync(marker, { force: true });
    sh("git status; git diff; git show -m HEAD~1; git diff --submodule=diff");
    // (The pager needs a terminal, and a process filter takes the place of clean and smudge: planted all the same.)
    for (const hook of ["fsmonitor", "process", "diff-command", "external", "textconv", "merge-driver", "sub-fsmonitor"]) expect(fired()).toContain(`evil ${hook}`);
  });

  test("every git command the policy runs unasked fires none of them, and still answers", async () => {
    rmSync(marker, { force: true });
    const ran = await runAllowed(GIT_CORPUS);
    expect(fired()).toBe("");
    expect(existsSync(join(repo, "out"))).toBe(false);
    // Not vacuous: the everyday ones ran; the ones that would reach a hook did not.
    expect(ran).toEqual(expect.arrayContaining(["git status", "git diff", "git log -p", "git show -m HEAD~1", "git -C sub diff", "git log -p -1 -m"]));
    expect(outputs.get("git status")).toMatchObject({ code: 0, out: expect.stringContaining("modified:   a.txt"), err: "" });
    expect(outputs.get("git diff")).toMatchObject({ code: 0, out: expect.stringContaining("+changed"), err: "" });
    for (const refused of ["git diff --submodule=diff", "git show --remerge-diff HEAD", "git diff --no-index -S -- --output=out a.txt notes.md", "git status --ignore-submodules=none"]) {
      expect(ran).not.toContain(refused);
    }
  });

  test.skipIf(!hasRg)("every rg command the policy runs unasked fires none of them", async () => {
    rmSync(marker, { force: true });
    // Premise: rg -z really runs a decompressor, and --pre after -e -- really runs the program.
    sh("rg -z foo data.gz; rg -e -- --pre=$PWD/../evil foo a.txt");
    expect(fired()).toContain("gzip");
    expect(fired()).toContain("evil");
    rmSync(marker, { force: true });
    const ran = await runAllowed(RG_CORPUS);
    expect(fired()).toBe("");
    expect(ran).toEqual(expect.arrayContaining(["rg foo", "rg -ez foo", "rg -g '*.gz' foo"]));
  });
});

describe("the option tables against the installed programs", () => {
  /** The long options git's own parser says take a value (`--name=` in its completion list). */
  const gitValued = (sub: string) =>
    sh(`git ${sub} --git-completion-helper-all`, dir)
      .out.split(/\s+/)
      .filter((o) => o.endsWith("=") && o.startsWith("--"))
      .map((o) => o.slice(2, -1));

  for (const sub of ["diff", "log", "show", "status"]) {
    test(`git ${sub}: every option git lists as taking a value is in the table`, () => {
      const valued = gitValued(sub);
      if (sub === "diff") expect(valued.length).toBeGreaterThan(10);
      for (const name of valued) expect(GIT_TABLES[sub]!.longValue).toContain(name);
    });
  }

  test("git log: each revision option in the table really takes the next word, -- included", () => {
    const table = GIT_TABLES.log!.longValue.filter((name) => !gitValued("diff").includes(name));
    for (const name of table) {
      rmSync(join(repo, "out"), { force: true });
      sh(`git --no-pager log --${name} --output=out -1 >/dev/null 2>&1`);
      expect({ name, wrote: existsSync(join(repo, "out")) }).toEqual({ name, wrote: false });
    }
    // The check can tell: an option that takes no value lets --output act.
    sh("git --no-pager log --oneline --output=out -1");
    expect(existsSync(join(repo, "out"))).toBe(true);
    rmSync(join(repo, "out"), { force: true });
  });

  test.skipIf(!hasRg)("rg: every option its --help shows with a value is in the table, long and short", () => {
    const help = sh("rg --help", dir).out;
    const valued = [...help.matchAll(/^\s+(?:-([A-Za-z]), )?--([a-z0-9-]+)(?:=| )<[^>]+>/gm)];
    expect(valued.length).toBeGreaterThan(20);
    for (const [, short, long] of valued) {
      expect(RG_TABLE.longValue).toContain(long!);
      if (short) expect(RG_TABLE.shortValue).toContain(short);
    }
  });
});
