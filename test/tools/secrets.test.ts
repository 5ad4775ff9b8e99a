// Issue 11, item 6: provider keys never reach a tool, and never leave through one.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { keyVariables, providerSecrets } from "../../src/providers/registry";
import { runTool } from "../../src/tools";
import { bashEnvironment } from "../../src/tools/bash-env";
import { scrub } from "../../src/tools/secrets";
import { tempDir } from "./helpers";

const ANTHROPIC = "sk-ant-api03-abcdefghijklmnop";
const OPENAI = "sk-proj-0123456789";

describe("the bash environment", () => {
  test("drops the provider keys and every *KEY*, *SECRET*, *TOKEN*, *PASSWORD* name, whatever its case", () => {
    const env = {
      PATH: "/bin",
      HOME: "/home/ana",
      ANTHROPIC_API_KEY: ANTHROPIC,
      OPENAI_API_KEY: OPENAI,
      GITHUB_TOKEN: "t",
      AWS_SECRET_ACCESS_KEY: "s",
      MYSQL_PASSWORD: "p",
      npm_config__authToken: "n",
      SSH_AUTH_SOCK: "/tmp/agent.sock",
    };
    expect(bashEnvironment(env, keyVariables())).toEqual({ PATH: "/bin", HOME: "/home/ana", SSH_AUTH_SOCK: "/tmp/agent.sock" });
  });

  test("AWL_BASH_PASS_ENV passes named variables through, never a provider key", () => {
    const env = { GITHUB_TOKEN: "t", NPM_TOKEN: "n", OPENAI_API_KEY: OPENAI, AWL_BASH_PASS_ENV: " GITHUB_TOKEN ,OPENAI_API_KEY" };
    expect(bashEnvironment(env, keyVariables())).toEqual({ GITHUB_TOKEN: "t", AWL_BASH_PASS_ENV: " GITHUB_TOKEN ,OPENAI_API_KEY" });
  });
});

describe("scrubbing tool output", () => {
  test("replaces each key's value with its name; short values and other text are left alone", () => {
    const secrets = { ANTHROPIC_API_KEY: ANTHROPIC, OPENAI_API_KEY: "short" };
    expect(scrub(`a ${ANTHROPIC} b ${ANTHROPIC}short`, secrets)).toBe("a [redacted ANTHROPIC_API_KEY] b [redacted ANTHROPIC_API_KEY]short");
    expect(scrub("nothing secret", secrets)).toBe("nothing secret");
    expect(scrub(ANTHROPIC, undefined)).toBe(ANTHROPIC);
  });

  test("a key that contains another is replaced whole", () => {
    const secrets = { OPENAI_API_KEY: OPENAI, ANTHROPIC_API_KEY: `${OPENAI}-longer` };
    expect(scrub(`${OPENAI}-longer ${OPENAI}`, secrets)).toBe("[redacted ANTHROPIC_API_KEY] [redacted OPENAI_API_KEY]");
  });

  test("providerSecrets takes the set keys from the environment", () => {
    expect(providerSecrets({ ANTHROPIC_API_KEY: ANTHROPIC, OPENAI_API_KEY: "", PATH: "/bin" })).toEqual({ ANTHROPIC_API_KEY: ANTHROPIC });
  });

  test("runTool scrubs every tool's output: a file read, a command's output, an error", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, ".env"), `ANTHROPIC_API_KEY=${ANTHROPIC}\nOPENAI_API_KEY=${OPENAI}\n`);
    const context = { cwd: dir, signal: new AbortController().signal, secrets: { ANTHROPIC_API_KEY: ANTHROPIC, OPENAI_API_KEY: OPENAI } };
    const read = await runTool("read", JSON.stringify({ path: ".env" }), context);
    expect(read.content).toBe("     1\tANTHROPIC_API_KEY=[redacted ANTHROPIC_API_KEY]\n     2\tOPENAI_API_KEY=[redacted OPENAI_API_KEY]");
    const bash = await runTool("bash", JSON.stringify({ command: "cat .env; exit 3" }), context);
    expect(bash).toEqual({
      content: "ANTHROPIC_API_KEY=[redacted ANTHROPIC_API_KEY]\nOPENAI_API_KEY=[redacted OPENAI_API_KEY]\nexit code: 3",
      isError: true,
    });
    const missing = await runTool("read", JSON.stringify({ path: `${ANTHROPIC}.txt` }), context);
    expect(missing.content).toBe("[redacted ANTHROPIC_API_KEY].txt: no such file");
  });

  test("a real-length key printed in pieces of 8 or more, one a line, is scrubbed piece by piece", () => {
    const key = "sk-ant-api03-Zq8vK2mXw9LpR4tY7uB1nC5eH3jD6gF0aS-QwErTyUiOp_AsDfGhJkL";
    const pieces = key.match(/.{1,8}/g)!;
    const scrubbed = scrub(`${pieces.join("\n")}\n`, { ANTHROPIC_API_KEY: key });
    for (const piece of pieces.filter((p) => p.length >= 8)) expect(scrubbed).not.toContain(piece);
    expect(scrubbed.split("\n").filter((l) => l === "[redacted ANTHROPIC_API_KEY]")).toHaveLength(pieces.filter((p) => p.length >= 8).length);
    // Longer runs, inside other text, are one redaction each; shorter ones and other text stay.
    expect(scrub(`a ${key.slice(5, 40)} b ${key.slice(50, 57)} c`, { ANTHROPIC_API_KEY: key })).toBe(`a [redacted ANTHROPIC_API_KEY] b ${key.slice(50, 57)} c`);
    expect(scrub("ordinary output, nothing secret\n", { ANTHROPIC_API_KEY: key })).toBe("ordinary output, nothing secret\n");
  });

  test("runTool scrubs a key a command prints eight characters a line (grep -o)", async () => {
    const dir = await tempDir();
    const key = "sk-proj-Lm3Nb7Vc1Xz5Qw9Er2Ty6Ui0Op4As8Df-GhJkLzXcVbNm1234";
    await writeFile(join(dir, "k"), `${key}\n`);
    const context = { cwd: dir, signal: new AbortController().signal, secrets: { OPENAI_API_KEY: key } };
    const tails: string[] = [];
    const out = await runTool("bash", JSON.stringify({ command: "grep -oE '.{8}' k" }), context, (tail) => tails.push(tail));
    for (const text of [out.content, ...tails]) {
      for (let i = 0; i + 8 <= key.length; i++) expect(text).not.toContain(key.slice(i, i + 8));
    }
    expect(out.content).toContain("[redacted OPENAI_API_KEY]");
  });

  test("every variable the providers read a key from is a row's key variable, which the agent hands to the tools", () => {
    const providers = join(import.meta.dir, "../../src/providers");
    const read = new Set<string>();
    for (const file of readdirSync(providers)) {
      const source = readFileSync(join(providers, file), "utf8");
      for (const [, name] of source.matchAll(/\benv\.([A-Z0-9_]*KEY[A-Z0-9_]*)/g)) read.add(name!);
      for (const [, name] of source.matchAll(/keyVariable: "([A-Z0-9_]+)"/g)) read.add(name!);
    }
    expect([...read].sort()).toEqual(keyVariables().sort());
  });
});
