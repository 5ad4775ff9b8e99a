// What "always" allows (src/agent/approval-scope.ts through Approvals): the
// exact command, or a program with a real subcommand, never further than what
// the person saw. Only the policy is asked; nothing here runs a command.
import { describe, expect, test } from "bun:test";
import { tmpdir } from "node:os";
import { Approvals, type ApprovalRequest, type Decision } from "../../src/agent/approval";
import { isReadOnlyCommand } from "../../src/agent/read-only";
import { checkCall } from "../../src/tools";

const cwd = tmpdir();
const decide = (approvals: Approvals, command: string) => approvals.decide(checkCall("bash", JSON.stringify({ command })), cwd);
const asked = (d: Decision): ApprovalRequest => {
  if (d.action !== "ask") throw new Error(`expected a question, got ${d.action}`);
  return d.request;
};
/** Answers "always" to `command` and returns the policy that remembers it. */
async function allowedAlways(command: string): Promise<Approvals> {
  const approvals = new Approvals("ask", {});
  approvals.allowAlways(asked(await decide(approvals, command)));
  return approvals;
}
const EXACT = ["only this exact command"];

/** Commands that delete or overwrite wholesale: "always" remembers each one exactly, and nothing else. */
const DESTRUCTIVE = [
  "rm -rf d1",
  "rm -f notes.txt",
  "rm -r build",
  "rmdir old",
  "unlink file",
  "mv a.txt b.txt",
  "mv -f src dst",
  "cp -r template src",
  "dd if=/dev/zero of=disk.img bs=1M count=1",
  "chmod -R 777 .",
  "chown -R nobody .",
  "chgrp -R users .",
  "truncate -s 0 log.txt",
  "shred -u secret.txt",
  "find . -delete",
  "find . -name '*.o' -exec rm '{}' +",
  "rsync -a --delete src/ dst/",
  "ln -sf target link",
  "sed -i s/a/b/ file.txt",
  "git push --force",
  "git push -f origin main",
  "git push --force-with-lease origin main",
  "git push --forc origin main",
  "git push origin +main",
  "git push origin :main",
  "git push --delete origin topic",
  "git push --mirror backup",
  "git reset --hard",
  "git reset --hard HEAD~3",
  "git clean -fdx",
  "git checkout -- .",
  "git checkout .",
  "git restore .",
  "git rm -r src",
  "git branch -D topic",
  "git stash drop",
  "git stash clear",
  "git switch -f main",
  "git switch --discard-changes main",
  "git fetch --prune",
  "git merge --abort",
  "git fetch origin +main:main",
  "git gc --prune=now",
  "git worktree remove ../wt",
  "git update-ref -d refs/heads/main",
  "npm run --script-shell=./x build",
  "cargo build --config target.runner='./x'",
  "go test -exec ./x ./...",
  "mkfs.ext4 /dev/sdz1",
];

describe("always for a command that deletes or overwrites", () => {
  test(`the corpus holds ${DESTRUCTIVE.length} commands (at least 30)`, () => {
    expect(DESTRUCTIVE.length).toBeGreaterThanOrEqual(30);
  });

  for (const command of DESTRUCTIVE) {
    test(`${command}: only this exact command, and nothing wider runs unasked`, async () => {
      const approvals = new Approvals("ask", {});
      const request = asked(await decide(approvals, command));
      expect(request.always).toEqual(EXACT);
      approvals.allowAlways(request);
      expect(await decide(approvals, command)).toMatchObject({ action: "run" });
      for (const wider of [`${command} ~/.ssh`, command.replace(/\S+$/, "other"), `${command} && rm -rf ~`, `${command}; ${command} other`]) {
        // (A variant that lost its deleting word may be read-only, and run like any read-only command.)
        if (!isReadOnlyCommand(wider)) expect(await decide(approvals, wider)).toMatchObject({ action: "ask" });
      }
      expect(approvals.allowed).toEqual([command]);
    });
  }

  test("a at rm -rf d1 never lets rm -rf d2 ~/.ssh run unasked", async () => {
    const approvals = await allowedAlways("rm -rf d1");
    expect(await decide(approvals, "rm -rf d2 ~/.ssh")).toMatchObject({ action: "ask" });
    expect(await decide(approvals, "rm -rf d1 ~/.ssh")).toMatchObject({ action: "ask" });
    expect(await decide(approvals, "rm -rf d1")).toMatchObject({ action: "run" });
  });
});

describe("always for a program with a real subcommand", () => {
  test("git add: any git add runs, but not with options that force, nor git with options before it", async () => {
    const approvals = new Approvals("ask", {});
    const request = asked(await decide(approvals, "git add src/a.ts"));
    expect(request.always).toEqual(["git add …"]);
    approvals.allowAlways(request);
    for (const command of ["git add b.ts", "git add -A", "git add b && git status", "git add x; git add y"]) {
      expect(await decide(approvals, command)).toMatchObject({ action: "run" });
    }
    for (const command of ["git add -f ignored", "git -C ../other add x", "git add $FILES", "git commit -m x", "git add x && rm y", "git add x > log"]) {
      expect(await decide(approvals, command)).toMatchObject({ action: "ask" });
    }
    expect(approvals.allowed).toEqual(["git add …"]);
  });

  test("git push: pushing runs; forcing, deleting and another transport program are asked", async () => {
    const approvals = await allowedAlways("git push origin main");
    expect(await decide(approvals, "git push")).toMatchObject({ action: "run" });
    for (const command of ["git push -f", "git push -uf origin x", "git push --force-if-includes", "git push origin +x", "git push origin :x", "git push --receive-pack=./x", "git push --exec=./x"]) {
      expect(await decide(approvals, command)).toMatchObject({ action: "ask" });
    }
  });

  test("npm run: any script, with arguments after --; an option before -- (npm's configuration) is asked", async () => {
    const approvals = await allowedAlways("npm run build");
    expect(await decide(approvals, "npm run lint")).toMatchObject({ action: "run" });
    expect(await decide(approvals, "npm run test -- --watch -x")).toMatchObject({ action: "run" });
    expect(await decide(approvals, "npm run --script-shell=./evil build")).toMatchObject({ action: "ask" });
    expect(await decide(approvals, "npm test")).toMatchObject({ action: "ask" });
  });

  test("a command of several subcommands offers each; one part without one makes it the exact command", async () => {
    const approvals = new Approvals("ask", {});
    expect(asked(await decide(approvals, "bun test && git add . && git commit -m wip")).always).toEqual(["bun test …", "git add …", "git commit …"]);
    expect(asked(await decide(approvals, "bun test && make")).always).toEqual(EXACT);
  });

  test("never a program with options: npm --prefix x test, git -C x add, cargo +nightly build are exact", async () => {
    const approvals = new Approvals("ask", {});
    for (const command of ["npm --prefix x test", "git -C x add y", "cargo +nightly build", "make", "make test", "python -m pytest"]) {
      expect(asked(await decide(approvals, command)).always).toEqual(EXACT);
    }
  });
});

describe("where always is not offered", () => {
  test("a command whose words expand at run time, or that cannot be parsed", async () => {
    const approvals = new Approvals("ask", {});
    for (const command of ["rm -rf $DIR", "rm -rf *", "rm $(cat list)", "$EDITOR x", "npm $CMD", "echo 'unclosed", "rm \"$HOME\"/x"]) {
      expect(asked(await decide(approvals, command)).always).toBeUndefined();
    }
  });

  test("runners, assignments and redirections get the exact command at most", async () => {
    const approvals = new Approvals("ask", {});
    for (const command of ["bash -c 'rm -rf x'", "sudo rm x", "xargs rm < list", "FOO=1 npm test", "npm test > out.txt", "cat < /dev/tcp/example.com/80"]) {
      expect(asked(await decide(approvals, command)).always).toEqual(EXACT);
    }
  });
});
