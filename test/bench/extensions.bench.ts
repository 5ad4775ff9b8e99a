// What extensions add to start-up (issue 29's bar: at most 5 ms per
// extension over none): `awl -p` to its first request with five small
// TypeScript extensions installed (each registers a tool and a handler before
// tool calls), against the same run with none, side by side, interleaved.
//
//   bun run bench extensions

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { benchWorld, median, runToFirstRequest } from "./awl-process";

const RUNS = 30;
const EXTENSIONS = 5;

const world = await benchWorld("extensions");
try {
  const { cwd } = world.project("project");
  const none = join(world.root, "config-none");
  const five = join(world.root, "config-five");
  mkdirSync(join(none, "awl"), { recursive: true });
  mkdirSync(join(five, "awl", "extensions"), { recursive: true });
  for (let i = 0; i < EXTENSIONS; i++) {
    const source = `type Api = { [name: string]: (...args: any[]) => any };
export default (awl: Api) => {
  awl.registerTool({ name: "tool_${i}", description: "Tool ${i}.", inputSchema: { type: "object" }, effect: () => ({ kind: "read" }), execute: (): string => "ok" });
  awl.on("before_tool_call", (call: { name: string }) => (call.name === "never_${i}" ? { refuse: "no" } : undefined));
};
`;
    writeFileSync(join(five, "awl", "extensions", `ext-${i}.ts`), source);
  }
  const run = (config: string) => runToFirstRequest(world.server, { ...world.env, XDG_CONFIG_HOME: config }, cwd, ["-p", "hi"]);
  for (let i = 0; i < 3; i++) await run(none).then(() => run(five)); // warm the page cache
  const without: number[] = [];
  const withFive: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    without.push((await run(none)).toRequestMs);
    withFive.push((await run(five)).toRequestMs);
  }
  const [a, b] = [median(without), median(withFive)];
  console.log(`awl -p to its first request, median of ${RUNS}, interleaved`);
  const row = (label: string, value: string) => console.log(`  ${label.padEnd(22)}${value}`);
  row("no extensions", `${a.toFixed(1)} ms`);
  row(`${EXTENSIONS} extensions (.ts)`, `${b.toFixed(1)} ms`);
  row("added per extension", `${((b - a) / EXTENSIONS).toFixed(2)} ms   (bar: at most 5 ms)`);
} finally {
  await world.cleanup();
}
