// The module table of docs/architecture.md, checked on the source: imports point down the
// table only, providers and the session layer never import each other, and
// arktype is imported only through src/ark.ts, which configures it before it
// loads (jitless: loading it compiled cost ~120 ms of every command that
// validates; see ark.ts).
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const SRC = join(import.meta.dir, "../src");
/** That table, top to bottom; files directly in src/ (errors, json, ark, main) stand outside it. */
const LAYERS = ["conversation", "session", "providers", "tools", "extensions", "mcp", "agent", "ui", "cli"];

const files = readdirSync(SRC, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts"));
/** Every module specifier a file imports, statically or with import()/require(). */
const importsOf = (file: string) => [...readFileSync(join(SRC, file), "utf8").matchAll(/(?:from|import|require)\s*\(?\s*"([^"]+)"/g)].map((m) => m[1]!);
const layerOf = (file: string) => (file.includes("/") ? file.split("/")[0]! : undefined);

test("imports point down the module table; providers and session never import each other", () => {
  const wrong: string[] = [];
  for (const file of files) {
    const from = layerOf(file);
    if (!from) continue;
    for (const spec of importsOf(file).filter((s) => s.startsWith("."))) {
      const to = layerOf(relative(SRC, resolve(SRC, dirname(file), spec)));
      if (!to || to === from) continue;
      const down = LAYERS.indexOf(to) < LAYERS.indexOf(from);
      const crossesNetworkAndDisk = [from, to].sort().join() === "providers,session";
      if (!down || crossesNetworkAndDisk) wrong.push(`${file} imports ${spec}`);
    }
  }
  expect(wrong).toEqual([]);
});

test("arktype is imported only through src/ark.ts, so it always loads configured", () => {
  const direct = files.filter((file) => file !== "ark.ts" && file !== "ark-config.ts" && importsOf(file).some((s) => s === "arktype" || s.startsWith("arktype/")));
  expect(direct).toEqual([]);
  expect(importsOf("ark.ts")).toEqual(["./ark-config", "arktype"]); // in this order
});

/**
 * session/ in wings (docs/architecture.md, "The session layer"), each allowed to
 * import the wings listed for it and nothing else: log (one session file: its
 * format, codec, kind table and writer) at the bottom, so the writer depends on
 * nothing that lists sessions; the store of sessions at the top.
 */
const WINGS: Record<string, string[]> = {
  log: [],
  checkpoints: ["log"],
  tree: ["log", "checkpoints"],
  store: ["log", "checkpoints", "tree"],
};
const wingOf = (file: string) => {
  const [top, wing, rest] = file.split("/");
  return top === "session" && rest !== undefined && wing! in WINGS ? wing : undefined;
};
/** Every relative import of a file, as [specifier, the file or folder it names, relative to src/]. */
const relativeImports = (file: string) => importsOf(file).filter((s) => s.startsWith(".")).map((spec) => [spec, relative(SRC, resolve(SRC, dirname(file), spec)).replace(/\.ts$/, "")] as const);

test("outside a wing of session/, only the wing's index is imported", () => {
  const wrong: string[] = [];
  for (const file of files) {
    for (const [spec, target] of relativeImports(file)) {
      const wing = wingOf(`${target}.ts`);
      if (wing && wing !== wingOf(file) && target !== `session/${wing}/index`) wrong.push(`${file} imports ${spec}`);
    }
  }
  expect(wrong).toEqual([]);
});

test("the wings of session/ import each other only downwards: log at the bottom, no cycle", () => {
  const wrong: string[] = [];
  for (const file of files) {
    const from = wingOf(file);
    if (!from) continue;
    for (const [spec, target] of relativeImports(file)) {
      const to = wingOf(`${target}.ts`) ?? wingOf(`${target}/index.ts`);
      if (target.startsWith("session") && !to) wrong.push(`${file} imports ${spec}, outside every wing`);
      else if (to && to !== from && !WINGS[from]!.includes(to)) wrong.push(`${file} imports ${spec}`);
    }
  }
  expect(wrong).toEqual([]);
});
