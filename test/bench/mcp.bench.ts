// MCP's cost to start-up (issue 30's bar: within 10 ms of none configured),
// printed, not asserted: the REPL's banner and prompt on stdout, and `awl -p`
// with AWL_MCP_WAIT=0 to its first request, with no server configured and
// with ten (one whose command does not exist, one that never answers, one
// that answers after 12 s, seven quick ones), the runs interleaved so a busy
// machine weighs on both alike. Then a round trip to a stdio server's tool
// through awl's own transport beside the SDK's own stdio client.
//
//   bun run bench mcp

import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { connect } from "../../src/mcp/connect";
import { AWL } from "../e2e/awl";
import { benchWorld, median } from "./awl-process";

const RUNS = 15;
const SERVER = join(import.meta.dir, "../support/mcp-server.ts");

const world = await benchWorld("mcp", { AWL_MCP_WAIT: "0", AWL_TITLES: "off" });
const { server, root, env } = world;
const config = join(root, "ten.json");
const quick = Object.fromEntries(Array.from({ length: 7 }, (_, i) => [`quick${i}`, { command: "bun", args: [SERVER] }]));
await Bun.write(config, JSON.stringify({ mcpServers: { ...quick, dead: { command: "no-such-server" }, silent: { command: "bun", args: [SERVER], env: { MCP_TEST_HANG: "1" } }, slow: { command: "bun", args: [SERVER], env: { MCP_TEST_DELAY_MS: "12000" } } } }));

/**
 * Spawn to the REPL's prompt on its terminal (a pseudo-terminal from
 * script(1): to a pipe, awl's writes would wait for the event loop, as they
 * never do on a terminal); then Ctrl+D ends it.
 */
async function toPrompt(extra: string[]): Promise<number> {
  const start = performance.now();
  const command = [AWL, ...extra].map((word) => `'${word}'`).join(" ");
  const child = Bun.spawn(["script", "-qfec", command, "/dev/null"], { cwd: root, env, stdin: "pipe", stdout: "pipe", stderr: "ignore" });
  let at = Number.NaN;
  let seen = "";
  for await (const chunk of child.stdout) {
    seen += new TextDecoder().decode(chunk);
    if (seen.includes("›")) {
      at = performance.now() - start;
      break;
    }
  }
  child.stdin.write("\x04");
  child.stdin.end();
  await child.exited;
  return at;
}

/** Spawn of `awl -p` to its request's headers at the test server (answered 400, so it ends there). */
async function toRequest(extra: string[]): Promise<number> {
  let at = Number.NaN;
  server.onRequest = (request) => void (at = request.headersAt);
  server.reply({ fault: { status: 400, message: "bench: stop here" } });
  const start = performance.now();
  await Bun.spawn([AWL, "-p", "x", ...extra], { cwd: root, env, stdin: "ignore", stdout: "ignore", stderr: "ignore" }).exited;
  server.onRequest = undefined;
  return at - start;
}

async function sideBySide(label: string, measure: (extra: string[]) => Promise<number>): Promise<void> {
  const none: number[] = [];
  const ten: number[] = [];
  await measure([]);
  await measure(["--mcp-config", config]);
  for (let i = 0; i < RUNS; i++) {
    none.push(await measure([]));
    ten.push(await measure(["--mcp-config", config]));
  }
  const [a, b] = [median(none), median(ten)];
  console.log(`  ${label.padEnd(34)} none ${a.toFixed(1).padStart(6)} ms   ten servers ${b.toFixed(1).padStart(6)} ms   added ${(b - a).toFixed(1).padStart(5)} ms`);
}

/** Median round trip of `add` through a connected client. */
async function roundTrips(client: Client): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 200; i++) {
    const start = performance.now();
    await client.callTool({ name: "add", arguments: { a: 1, b: 2 } });
    if (i >= 20) times.push(performance.now() - start);
  }
  return median(times);
}

try {
  console.log(`MCP start-up, median of ${RUNS} interleaved runs (target: within 10 ms of none)`);
  await sideBySide("REPL, spawn to prompt", toPrompt);
  await sideBySide("awl -p, AWL_MCP_WAIT=0, to request", toRequest);

  const ours = await connect("bench", { command: "bun", args: [SERVER] }, { cwd: root, env, timeoutMs: 30_000, signal: new AbortController().signal, onClose: () => {} });
  const sdk = new Client({ name: "bench", version: "1" });
  await sdk.connect(new StdioClientTransport({ command: "bun", args: [SERVER], stderr: "ignore" }));
  const [mine, theirs] = [await roundTrips(ours.client), await roundTrips(sdk)];
  console.log(`a tool call's round trip, median of 180 (target: within 3 ms of the SDK's own client)`);
  console.log(`  awl's stdio transport ${mine.toFixed(3)} ms   the SDK's ${theirs.toFixed(3)} ms   added ${(mine - theirs).toFixed(3)} ms`);
  await ours.client.close();
  await sdk.close();
} finally {
  await world.cleanup();
}
