// A tiny child for crash.test.ts: opens (or creates) a session with the real
// SessionManager and appends large entries in a tight loop, so that a SIGKILL
// lands inside write(2) and tears a line for real. After each append returns
// it prints `ack <id>`: that entry must survive any later kill byte for byte.
//
//   bun test/reliability/writer.ts <session file | new:<cwd>> <seed>
import { preloadSchemas, SessionManager } from "../../src/session";

const [target, seedText] = process.argv.slice(2) as [string, string];
const session = target.startsWith("new:")
  ? SessionManager.init({ cwd: target.slice(4), provider: "anthropic", model: "claude-sonnet-4-5" })
  : await SessionManager.open(target);
// The schemas load on first use; load them before saying "open", so the kill
// that follows lands in the appends, not in arktype's start-up.
preloadSchemas();
const out = (line: string) => process.stdout.write(`${line}\n`);
out(`open ${session.sessionFile} ${session.recovery?.trimmedBytes ?? 0}`);

let seed = Number(seedText) >>> 0;
const next = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32);
for (let n = 0; ; n++) {
  // 64 KiB to 6 MiB: big enough that the kernel copies it in many pages.
  const size = 65_536 + Math.floor(next() * 6 * 1024 * 1024);
  const text = String.fromCharCode(97 + (n % 26)).repeat(size);
  const id = session.appendMessage({ role: "user", content: [{ type: "text", text }] }, { provider: "anthropic", model: "claude-sonnet-4-5" });
  out(`ack ${id}`);
}
