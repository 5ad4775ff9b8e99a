// What the answer in flight costs the log (docs/session-format.md, "partial"):
// one slow answer of thinking and text streamed through `awl -p --json`, and
// the bytes of its partial lines against the bar: at most its text and
// thinking once more, counted as JSON-escaped bytes, plus 150 bytes a partial.
//
//   bun run bench partials

import { benchWorld } from "./awl-process";
import { AWL } from "../e2e/awl";

// Characters JSON escapes (quotes, backslashes, newlines) are in, so escaping is counted.
const thinking = Array.from({ length: 120 }, (_, i) => `Step ${i}: "check" the\\path\n`).join("");
const text = Array.from({ length: 400 }, (_, i) => `Line ${i} of the "answer".\n`).join("");
const escaped = (s: string) => JSON.stringify(s).length - 2;

const world = await benchWorld("partials");
try {
  const { cwd } = world.project("p");
  world.server.reply({ blocks: [{ type: "thinking", thinking }, { type: "text", text }], chunk: 12, delayMs: 6 });
  const child = Bun.spawn([AWL, "-p", "go", "--json", "--thinking"], { cwd, env: world.env, stdin: "ignore", stdout: "pipe", stderr: "inherit" });
  const stdout = await new Response(child.stdout).text();
  if ((await child.exited) !== 0) throw new Error(`awl -p --json exited ${child.exitCode}`);
  const partials = stdout.split("\n").filter((l) => l.startsWith('{"type":"partial"'));
  const bytes = partials.reduce((n, l) => n + Buffer.byteLength(l) + 1, 0);
  const bar = escaped(thinking) + escaped(text) + 150 * partials.length;
  const answer = escaped(thinking) + escaped(text);
  console.log(`Log growth of one streamed answer (${answer.toLocaleString("en-US")} bytes of thinking and text, JSON-escaped)`);
  console.log(`  partial lines        ${partials.length}`);
  console.log(`  their bytes          ${bytes.toLocaleString("en-US")}   (bar <= ${bar.toLocaleString("en-US")}: the answer once more + 150 a partial)`);
  console.log(`  over the answer      ${(bytes - answer).toLocaleString("en-US")} bytes, ${Math.round((bytes - answer) / Math.max(1, partials.length))} a partial`);
  if (bytes > bar) process.exitCode = 1;
} finally {
  await world.cleanup();
}
