// Concurrent writers (issue 6, item 2). Two awl processes resume the same
// session at the same moment, 100 rounds: exactly one proceeds, the other
// exits 1 with a one-line message naming the first one's pid; the file never
// holds an interleaved or fused line (every line parses, the parent chain is
// intact). Some rounds first SIGKILL a process that holds the lock: the lock
// it leaves (flock is dropped by the kernel; the pid sidecar stays behind)
// never blocks the next pair, and the message never names the dead process.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { AWL, e2eFixture } from "../e2e/awl";
import { checkChain } from "./lines";

const ROUNDS = Number(process.env.AWL_RELIABILITY_ROUNDS ?? 100);

let fx: Awaited<ReturnType<typeof e2eFixture>>;
beforeAll(async () => {
  fx = await e2eFixture();
});
afterAll(async () => {
  await fx?.cleanup();
});

test(`two awl processes resuming one session at once, ${ROUNDS} rounds: exactly one proceeds`, async () => {
  fx.server.reply({ blocks: [{ type: "text", text: "started" }] });
  expect((await fx.run(["-p", "start"])).code).toBe(0);
  const [file] = readdirSync(fx.sessions, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".jsonl")).map((f) => join(fx.sessions, f)) as [string];
  const id = file.slice(-42, -6);

  // While a round runs, a request waits until the other process has exited (or
  // 5 s have passed, in which case both are running and the test fails on the
  // exit codes): so the winner surely holds the lock while the loser tries.
  let hold: Promise<unknown> = Promise.resolve();
  let onArrival: (() => void) | undefined;
  fx.server.onRequest = async () => {
    fx.server.reply({ blocks: [{ type: "text", text: "done" }] });
    onArrival?.();
    await hold;
  };
  const spawn = (prompt: string) =>
    Bun.spawn([AWL, "-p", prompt, "--resume", id], { cwd: fx.project, env: fx.env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });

  let proceeded = 0;
  let refused = 0;
  let stale = 0;
  let namedWinner = 0;
  let entries = 0;
  for (let round = 0; round < ROUNDS; round++) {
    if (round % 5 === 4) {
      // A holder that dies by SIGKILL while it holds the lock, mid-request.
      const holder = spawn(`round ${round}: holder`);
      const arrived = new Promise<void>((resolve) => (onArrival = resolve));
      hold = holder.exited;
      await Promise.race([arrived, holder.exited]);
      holder.kill("SIGKILL");
      await holder.exited;
      expect(holder.signalCode).toBe("SIGKILL");
      expect(existsSync(`${file}.lock`)).toBe(true); // the sidecar outlives its process
      stale++;
      onArrival = undefined;
    }
    const a = spawn(`round ${round}: A`);
    const b = spawn(`round ${round}: B`);
    const first = Promise.race([a.exited, b.exited]);
    hold = Promise.race([first, Bun.sleep(5000)]);
    const [ra, rb] = await Promise.all(
      [a, b].map(async (p) => {
        const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
        return { pid: p.pid, stdout, stderr, code };
      }),
    );
    const results = [ra!, rb!];
    const winners = results.filter((r) => r.code === 0);
    const losers = results.filter((r) => r.code !== 0);
    if (winners.length !== 1) throw new Error(`round ${round}: ${winners.length} processes proceeded: ${JSON.stringify(results)}`);
    const [winner, loser] = [winners[0]!, losers[0]!];
    expect(winner.stdout).toBe("done\n");
    expect(loser.code).toBe(1);
    const lines = loser.stderr.split("\n").filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`pid ${winner.pid})`);
    expect(lines[0]).toContain("in use");
    namedWinner++;
    proceeded++;
    refused++;
    entries = checkChain(readFileSync(file), file);
  }
  console.log(
    `concurrent resume: rounds ${ROUNDS}, proceeded ${proceeded}, refused ${refused} (each naming the winner's pid ${namedWinner}), ` +
      `locks left by SIGKILLed holders ${stale} (blocked nobody), fused or interleaved lines 0, ${entries} entries in an intact chain`,
  );
}, 300_000);
