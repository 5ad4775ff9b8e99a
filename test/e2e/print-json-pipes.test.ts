// `awl -p --json` and its reader: a slow one loses nothing, one that leaves
// (`| head -1`) ends awl as SIGPIPE would (quietly, exit 141, the log whole),
// and a stop signal still gets its result line (status interrupted, 128 + N).
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Reply } from "../support/server";
import { AWL, useE2eFixture } from "./awl";
import { checkStream, fileText } from "./json-stream";

const fx = useE2eFixture();
const tool = (command: string): Reply => ({ blocks: [{ type: "toolUse", name: "bash", input: { command } }] });

/** Runs `awl --json args | pipeline` under bash: awl's exit code, its stderr, and what the pipeline wrote to a file. */
async function piped(args: string[], pipeline: string): Promise<{ code: number; stderr: string; out: string }> {
  const out = join(fx.root, "out");
  const err = join(fx.root, "err");
  const script = `"$0" --json "$@" 2>"${err}" | ${pipeline} >"${out}"; echo "\${PIPESTATUS[0]}"`;
  const child = Bun.spawn(["bash", "-c", script, AWL, ...args], { cwd: fx.project, env: fx.env, stdin: "ignore", stdout: "pipe", stderr: "inherit" });
  const code = Number((await new Response(child.stdout).text()).trim());
  return { code, stderr: readFileSync(err, "utf8"), out: readFileSync(out, "utf8") };
}

test("a slow reader (| (sleep 2; cat)) loses nothing: the whole stream, then the result", async () => {
  const big = "x".repeat(300_000); // more than a pipe holds: awl must wait for the reader, not drop or block the log
  fx.server.reply(tool(`printf '${"y".repeat(100)}%.0s' $(seq 2000)`), { blocks: [{ type: "text", text: big }], chunk: 50_000 });
  const { code, stderr, out } = await piped(["-p", "go"], "(sleep 2; cat)");
  expect(code).toBe(0);
  const { result, lines } = checkStream(fx, "", { code, stdout: out, stderr });
  expect(result.status).toBe("ok");
  expect(JSON.parse(lines.at(-2)!).message.content[0].text).toBe(big);
}, 30_000);

test("| head -1: awl ends quietly with exit 141, and the log holds the whole turn", async () => {
  // Slow enough that head has gone before the answer is appended.
  fx.server.reply({ blocks: [{ type: "text", text: "a slow answer, streamed slowly" }], chunk: 2, delayMs: 20 });
  const { code, stderr, out } = await piped(["-p", "go"], "head -1");
  expect({ code, stderr }).toEqual({ code: 141, stderr: "" });
  const file = fileText(fx);
  expect(out).toBe(file.slice(0, file.indexOf("\n") + 1)); // the header
  const last = JSON.parse(file.trim().split("\n").at(-1)!);
  expect(last.message.role).toBe("assistant");
}, 30_000);

test("a stop signal: the turn's partial answer is appended and streamed, then a result line with status interrupted and 143", async () => {
  fx.server.reply({ blocks: [{ type: "text", text: "word ".repeat(400) }], chunk: 5, delayMs: 10 });
  let arrived!: () => void;
  const requested = new Promise<void>((resolve) => (arrived = resolve));
  fx.server.onRequest = () => arrived();
  const child = Bun.spawn([AWL, "-p", "go", "--json"], { cwd: fx.project, env: fx.env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  await requested;
  child.kill("SIGTERM");
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  expect(code).toBe(143);
  const { result, lines } = checkStream(fx, "", { code, stdout, stderr });
  expect(result).toMatchObject({ status: "interrupted", exitCode: 143 });
  expect(JSON.parse(lines.at(-2)!).message).toMatchObject({ role: "assistant", stopReason: "error" });
}, 30_000);

test("the session file deleted mid-run: awl writes it back, and the stream still matches it byte for byte", async () => {
  fx.server.reply(tool(`rm -f "$(find "$AWL_SESSION_DIR" -name '*.jsonl')"`), { blocks: [{ type: "text", text: "after" }] });
  // Outside the sandbox, which keeps a command away from the session files: here something else deletes it, as the person could.
  const child = Bun.spawn([AWL, "-p", "go", "--json"], { cwd: fx.project, env: { ...fx.env, AWL_SANDBOX: "off" }, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  expect(stderr).toContain("was deleted while awl was running");
  const { result } = checkStream(fx, "", { code, stdout, stderr });
  expect(result.sessionId).not.toBeNull();
}, 30_000);
