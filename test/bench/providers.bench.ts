// Provider layer CPU cost per streamed delta, against the floor of only
// reading and splitting the same SSE bytes. The test server runs in a child
// process (this file with --serve) so that process.cpuUsage() here measures
// the client alone: rendering and writing 100,000 events costs the server far
// more than reading them costs us, and would hide the difference.
//
//   bun run test/bench/providers.bench.ts        (or: bun run bench providers)

import { Conversation } from "../../src/conversation";
import { createProvider } from "../../src/providers";
import { requestBody as anthropicBody } from "../../src/providers/anthropic-wire";
import { requestBody as openaiBody } from "../../src/providers/openai-wire";
import type { ProviderName, StreamRequest, WireApi } from "../../src/providers/provider";
import { requestBody as responsesBody } from "../../src/providers/responses-wire";
import { sseBatches } from "../../src/providers/sse";
import { startTestServer } from "../support/server";

const DELTAS = 100_000;
const RUNS = 7;
/** One row per wire protocol: the provider that speaks it, and the environment that picks it. */
const ROWS: { api: WireApi; provider: ProviderName; env: Record<string, string> }[] = [
  { api: "anthropic-messages", provider: "anthropic", env: {} },
  { api: "openai-chat", provider: "openai", env: { AWL_OPENAI_API: "chat" } },
  { api: "openai-responses", provider: "openai", env: { AWL_OPENAI_API: "responses" } },
];
// Per row: one warm-up of each kind, then RUNS of each.
const REPLIES = ROWS.length * 2 * (RUNS + 1);
/** Origins only matter for thinking sent back; the bench sends none. */
const NO_ORIGIN = { api: "", fingerprint: "" };

if (process.argv.includes("--serve")) {
  const server = await startTestServer();
  // One character per delta: the smallest event each protocol can carry.
  for (let i = 0; i < REPLIES; i++) server.reply({ blocks: [{ type: "text", text: "x".repeat(DELTAS) }], chunk: 1 });
  const { anthropicUrl, openaiUrl, anthropicKey, openaiKey } = server;
  console.log(JSON.stringify({ anthropicUrl, openaiUrl, anthropicKey, openaiKey }));
} else {
  await main();
}

async function main() {
  const child = Bun.spawn(["bun", import.meta.path, "--serve"], { stdout: "pipe", stderr: "inherit" });
  try {
    const reader = child.stdout.getReader();
    const { value } = await reader.read();
    const server = JSON.parse(new TextDecoder().decode(value).split("\n")[0]!);
    const env = {
      ANTHROPIC_API_KEY: server.anthropicKey,
      ANTHROPIC_BASE_URL: server.anthropicUrl,
      OPENAI_API_KEY: server.openaiKey,
      OPENAI_BASE_URL: server.openaiUrl,
    };
    console.log(`${DELTAS.toLocaleString("en")} one-character deltas per run, median of ${RUNS} runs, client CPU only`);
    for (const row of ROWS) {
      const name = row.provider;
      const request: StreamRequest = {
        model: name === "anthropic" ? "claude-sonnet-4-5" : "gpt-5-mini",
        system: "bench",
        conversation: new Conversation([{ role: "user", content: [{ type: "text", text: "go" }] }]),
        tools: [],
        maxTokens: 1024,
        signal: new AbortController().signal,
      };
      const provider = createProvider(name, { ...env, ...row.env });
      const floor = () => readRaw(row.api, env, request);
      const full = async () => {
        let deltas = 0;
        for await (const event of provider.stream(request)) {
          if (event.type === "delta") deltas++;
          else if (event.type === "end" && event.stopReason === "error") throw new Error(event.errorMessage);
        }
        return deltas;
      };
      await floor();
      await full();
      const floorUs: number[] = [];
      const fullUs: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        floorUs.push(await cpuPerDelta(floor));
        fullUs.push(await cpuPerDelta(full));
      }
      const f = median(floorUs);
      const p = median(fullUs);
      console.log(
        `${row.api.padEnd(18)}  floor (read + split SSE) ${f.toFixed(3)} µs/delta   provider ${p.toFixed(3)} µs/delta   ratio ${(p / f).toFixed(2)}x (target <= 2x)`,
      );
    }
  } finally {
    child.kill();
  }
}

/** The floor: the same request, the body read and split into SSE events, nothing parsed. */
async function readRaw(api: WireApi, env: Record<string, string>, request: StreamRequest): Promise<number> {
  const anthropic = api === "anthropic-messages";
  const url = anthropic ? `${env.ANTHROPIC_BASE_URL}/v1/messages` : `${env.OPENAI_BASE_URL}/${api === "openai-chat" ? "chat/completions" : "responses"}`;
  const headers: Record<string, string> = anthropic
    ? { "content-type": "application/json", "x-api-key": env.ANTHROPIC_API_KEY!, "anthropic-version": "2023-06-01" }
    : { "content-type": "application/json", authorization: `Bearer ${env.OPENAI_API_KEY}` };
  const body = JSON.stringify(
    anthropic ? anthropicBody(request, NO_ORIGIN) : api === "openai-chat" ? openaiBody(request) : responsesBody(request, { origin: NO_ORIGIN, reasoning: false }),
  );
  const response = await fetch(url, { method: "POST", headers, body });
  if (!response.ok || !response.body) throw new Error(`floor request failed: ${response.status} ${await response.text()}`);
  let events = 0;
  for await (const batch of sseBatches(response.body)) events += batch.length;
  return events;
}

async function cpuPerDelta(run: () => Promise<number>): Promise<number> {
  const start = process.cpuUsage();
  const count = await run();
  const used = process.cpuUsage(start);
  if (count < DELTAS) throw new Error(`expected at least ${DELTAS} events, got ${count}`);
  return (used.user + used.system) / DELTAS;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}
