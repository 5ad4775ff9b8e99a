// Time to first visible token: what awl adds over the test server's own
// latency (issue 4's bar: under 10 ms). The floor is a bare fetch of the same
// streaming request, read until the first text delta's bytes arrive. awl's
// figure runs a real turn (user message appended with fsync, request built,
// stream parsed) until the renderer writes the first character.
// The server runs in a child process so both sides see the same loopback path.
//
//   bun run bench first-token

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent } from "../../src/agent/agent";
import { SessionManager } from "../../src/session";
import { colorsFor } from "../../src/ui/render/colors";
import { TurnRenderer } from "../../src/ui/live/render";
import { startTestServer } from "../support/server";

const RUNS = 40;

if (process.argv.includes("--serve")) {
  const server = await startTestServer();
  for (let i = 0; i < 2 * (RUNS + 5); i++) server.reply({ blocks: [{ type: "text", text: "Hello there, this is the answer." }], chunk: 4 });
  const { anthropicUrl, anthropicKey } = server;
  console.log(JSON.stringify({ anthropicUrl, anthropicKey }));
} else {
  await main();
}

async function main() {
  const child = Bun.spawn(["bun", import.meta.path, "--serve"], { stdout: "pipe", stderr: "inherit" });
  const root = mkdtempSync(join(tmpdir(), "awl-ttft-"));
  try {
    const { value } = await child.stdout.getReader().read();
    const server = JSON.parse(new TextDecoder().decode(value).split("\n")[0]!);
    const env = { ANTHROPIC_API_KEY: server.anthropicKey, ANTHROPIC_BASE_URL: server.anthropicUrl };
    process.env.AWL_SESSION_DIR = join(root, "sessions");

    const floor: number[] = [];
    const awl: number[] = [];
    const session = SessionManager.init({ cwd: root, provider: "anthropic", model: "claude-sonnet-4-5" });
    const agent = new Agent({ session, cwd: root, model: { provider: "anthropic", model: "claude-sonnet-4-5" }, env });
    agent.warmUp(); // as the REPL does once its prompt shows: arktype loads while the person types
    let firstTurn = 0;
    for (let i = 0; i < RUNS + 5; i++) {
      const f = await bareFetch(server.anthropicUrl, server.anthropicKey);
      const a = await awlTurn(agent, i);
      if (i === 0) firstTurn = a;
      if (i >= 5) {
        floor.push(f);
        awl.push(a);
      }
    }
    session.close();
    const mf = median(floor);
    const ma = median(awl);
    console.log(`time to first visible token, median of ${RUNS} (after 5 warm-up turns)`);
    console.log(`  floor (bare fetch to first delta bytes)  ${mf.toFixed(2)} ms`);
    console.log(`  awl turn (append+fsync, request, parse)  ${ma.toFixed(2)} ms`);
    console.log(`  added by awl                             ${(ma - mf).toFixed(2)} ms   (target < 10 ms)`);
    console.log(`  first turn of a new session              ${firstTurn.toFixed(2)} ms   (creates dirs, header, system message)`);
  } finally {
    child.kill();
    rmSync(root, { recursive: true, force: true });
  }
}

async function bareFetch(base: string, key: string): Promise<number> {
  const start = performance.now();
  const response = await fetch(`${base}/v1/messages`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": key, "anthropic-version": "2023-06-01" },
    body: JSON.stringify({ model: "claude-sonnet-4-5", max_tokens: 1024, stream: true, messages: [{ role: "user", content: "hi" }] }),
  });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let seen = "";
  let at = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    seen += decoder.decode(value, { stream: true });
    if (!at && seen.includes("text_delta")) at = performance.now() - start;
  }
  return at;
}

async function awlTurn(agent: Agent, i: number): Promise<number> {
  let at = 0;
  const start = performance.now();
  const sink = {
    isTTY: false,
    write(s: string) {
      if (!at && s.trim()) at = performance.now() - start;
      return true;
    },
  };
  const renderer = new TurnRenderer(sink, colorsFor(sink));
  await agent.runTurn(`prompt ${i}`, new AbortController().signal, (e) => renderer.handle(e));
  return at;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}
