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
const LAYERS = ["conversation", "session", "providers", "tools", "agent", "ui", "cli"];

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
