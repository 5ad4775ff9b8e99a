// Stalls are judged on the stream alone (issue 11, item 11). The idle timeout
// (AWL_STREAM_IDLE_TIMEOUT_MS) is for a server that has gone silent, so:
// - a large request body uploading slowly over a thin link is not silence:
//   the timeout starts once the body has been sent. The link is a TCP proxy
//   between awl and the strict test server that passes the upload at a fixed
//   rate (the response is not slowed);
// - a process stop (Ctrl+Z, SIGSTOP, then SIGCONT) is not the server's silence.
// Before: the slow upload was aborted as "sent nothing" and retried, and a
// 2.5 s SIGSTOP failed the turn.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import net from "node:net";
import { AWL, e2eFixture, sessionFiles } from "../e2e/awl";

let fx: Awaited<ReturnType<typeof e2eFixture>>;
beforeEach(async () => {
  fx = await e2eFixture();
});
afterEach(async () => {
  await fx.cleanup();
});

/** A TCP proxy to `port` that lets the client's bytes through at `bytesPerSecond` (the kernel's buffers hold the rest, so the client's writes slow down). */
async function thinUplink(port: number, bytesPerSecond: number) {
  const sockets = new Set<net.Socket>();
  const proxy = net.createServer((client) => {
    const upstream = net.connect(port, "127.0.0.1");
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("error", () => {});
    }
    let allowedAt = performance.now();
    client.on("data", (chunk) => {
      upstream.write(chunk);
      // Pause the client long enough that its bytes so far took `bytesPerSecond` to pass.
      allowedAt = Math.max(allowedAt, performance.now()) + (chunk.length / bytesPerSecond) * 1000;
      const wait = allowedAt - performance.now();
      if (wait > 1) {
        client.pause();
        setTimeout(() => client.resume(), wait);
      }
    });
    upstream.on("data", (chunk) => client.write(chunk));
    client.on("end", () => upstream.end());
    upstream.on("end", () => client.end());
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(proxy.address() as net.AddressInfo).port}`,
    close() {
      for (const s of sockets) s.destroy();
      proxy.close();
    },
  };
}

describe("the idle timeout", () => {
  test("does not count a slow upload as silence: a 24 MB prompt through a 8 MB/s link with a 2 s timeout goes through on the first try", async () => {
    const link = await thinUplink(Number(new URL(fx.server.url).port), 8 << 20);
    try {
      fx.server.reply({ blocks: [{ type: "text", text: "read it all" }] });
      const prompt = `${"All work and no play makes a long prompt. ".repeat(Math.ceil((24 << 20) / 42))}\nSummarize.`;
      const started = performance.now();
      const run = await fx.run(["-p", "-"], {
        stdin: prompt,
        env: { ANTHROPIC_BASE_URL: link.url, AWL_STREAM_IDLE_TIMEOUT_MS: "2000", AWL_CONTEXT_WINDOW: "100m" },
      });
      const ms = performance.now() - started;
      expect(run).toMatchObject({ code: 0, stdout: "read it all\n" });
      expect(run.stderr).toBe("");
      expect(fx.server.requests.map((r) => r.status)).toEqual([200]);
      // The upload itself took longer than the timeout: the case being tested.
      expect(fx.server.requests[0]!.bodyAt - fx.server.requests[0]!.headersAt).toBeGreaterThan(2000);
      console.log(`24 MB prompt over 8 MB/s: answered in ${Math.round(ms)} ms with a 2 s idle timeout`);
    } finally {
      link.close();
    }
  });

  test("still gives up on a server that takes the whole request and then says nothing", async () => {
    fx.server.reply(
      ...Array.from({ length: 6 }, () => ({ blocks: [{ type: "text" as const, text: "never" }], fault: { midStream: "stall" as const, afterEvents: 0 } })),
    );
    const run = await fx.run(["-p", "hello?"], { env: { AWL_STREAM_IDLE_TIMEOUT_MS: "300" } });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/Anthropic sent nothing for 300 ms \(gave up after 6 tries\)\n$/);
  });

  for (const stop of ["SIGSTOP", "SIGTSTP"] as const) {
    test(`does not count a process stop (${stop} for 2.5 s, then SIGCONT) as the server's silence`, async () => {
      const words = Array.from({ length: 40 }, (_, i) => `w${i}`).join(" ");
      fx.server.reply({ blocks: [{ type: "text", text: words }], chunk: 4, delayMs: 50 });
      let arrived = 0;
      fx.server.onRequest = () => void (arrived = Date.now());
      const child = Bun.spawn([AWL, "-p", "count"], { cwd: fx.project, env: { ...fx.env, AWL_STREAM_IDLE_TIMEOUT_MS: "1000" }, stdout: "pipe", stderr: "pipe" });
      const output = Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text()]);
      while (!arrived) await Bun.sleep(5);
      await Bun.sleep(200); // mid-stream
      child.kill(stop);
      await Bun.sleep(2500);
      child.kill("SIGCONT");
      const code = await child.exited;
      const [stdout, stderr] = await output;
      expect({ code, stdout, stderr }).toEqual({ code: 0, stdout: `${words}\n`, stderr: "" });
      expect(fx.server.requests).toHaveLength(1);
      expect(sessionFiles(fx.sessions)).toHaveLength(1);
    });
  }
});
