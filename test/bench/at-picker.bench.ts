// The `@` picker's first screen over a 100,000-file repository, through the
// compiled binary on a pseudo-terminal (util-linux `script`): the time from
// the `@` keystroke to the picker's first row on the output, beside the sum
// of what it cannot do without: `git ls-files | head` on the same repository,
// and the time a typed character takes to show at the same prompt. Bar: the
// first screen within 2x that sum. `bun run bench at-picker`.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const FILES = 100_000;
const AWL = join(import.meta.dir, "../../dist/awl");

const root = mkdtempSync(join(tmpdir(), "awl-at-bench-"));
try {
  const cwd = join(root, "repo");
  const started = performance.now();
  for (let d = 0; d < FILES / 100; d++) {
    const dir = join(cwd, `pkg${String(d).padStart(4, "0")}`, "src");
    mkdirSync(dir, { recursive: true });
    for (let f = 0; f < 100; f++) writeFileSync(join(dir, `file${f}.ts`), "");
  }
  const git = (command: string) => Bun.spawnSync(["bash", "-c", command], { cwd, stdout: "pipe", stderr: "pipe", env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: root, GIT_AUTHOR_NAME: "b", GIT_AUTHOR_EMAIL: "b@b", GIT_COMMITTER_NAME: "b", GIT_COMMITTER_EMAIL: "b@b" } });
  git("git init -q && git add -A && git commit -qm files");
  console.log(`generated a repository of ${FILES.toLocaleString("en-US")} files in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: root, AWL_SESSION_DIR: join(root, "sessions"), TERM: "xterm-256color", ANTHROPIC_API_KEY: "bench", AWL_TITLES: "off" };

  const gitHead = () => {
    const t = performance.now();
    git("git ls-files | head");
    return performance.now() - t;
  };

  /** On a 120x40 pty: milliseconds from typing `key` at the ready prompt to `shown(output after it)`. */
  const atPrompt = async (key: string, shown: (out: string) => boolean) => {
    const child = Bun.spawn(["script", "-qfec", `stty cols 120 rows 40; ${AWL}`, "/dev/null"], { cwd, env, stdin: "pipe", stdout: "pipe", stderr: "pipe" });
    const limit = setTimeout(() => child.kill(), 30_000); // a screen that never shows fails below, it does not hang the bench
    const decoder = new TextDecoder();
    let out = "";
    let typedAt: number | undefined;
    let ms: number | undefined;
    for await (const chunk of child.stdout) {
      out += decoder.decode(chunk, { stream: true });
      if (typedAt === undefined && out.includes("/help for commands")) {
        await Bun.sleep(300); // the prompt drawn and the warm-up done: the keystroke meets an idle prompt
        out = "";
        typedAt = performance.now();
        child.stdin.write(key);
        child.stdin.flush();
      } else if (typedAt !== undefined && shown(out)) {
        ms = performance.now() - typedAt;
        break;
      }
    }
    clearTimeout(limit);
    child.kill();
    await child.exited;
    if (ms === undefined) throw new Error(`never shown after ${JSON.stringify(key)}: ${out.slice(0, 500)}`);
    return ms;
  };
  const picker = () => atPrompt("@", (out) => out.includes("pkg0000/src/file0.ts"));
  const echo = () => atPrompt("x", (out) => out.includes("x"));
  for (const attempt of ["first run", "warm", "warm"]) {
    const first = await picker();
    const head = gitHead();
    const typed = await echo();
    const bar = 2 * (head + typed);
    console.log(`@ picker first screen (${attempt}): ${first.toFixed(0)} ms; git ls-files | head: ${head.toFixed(0)} ms; a typed character: ${typed.toFixed(0)} ms; bar 2x(sum): ${bar.toFixed(0)} ms ${first <= bar ? "(within)" : "(over)"}`);
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
