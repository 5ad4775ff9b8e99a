// The generated checks (src/session/log/checks.generated.ts) are arktype's own
// compiled code for the session schemas: they must be what build.ts makes
// from schema.ts now, and give the verdict arktype gives, on every value.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ArkErrors } from "../../src/ark";
import { allows } from "../../src/session/log/checks.generated";
import * as schemas from "../../src/session/log/schema";
import { prng, type Random } from "../support/prng";
import { SPEC } from "./helpers";

const ROOT = join(import.meta.dir, "../..");

describe("the generated checks", () => {
  test("are what build.ts generates from schema.ts today (run `bun run build` after changing a schema)", () => {
    const script = `const { validatorsSource } = await import(${JSON.stringify(join(ROOT, "build.ts"))}); process.stdout.write(await validatorsSource());`;
    const child = Bun.spawnSync(["bun", "-e", script], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
    expect(child.stderr.toString()).toBe("");
    expect(child.stdout.toString()).toBe(readFileSync(join(ROOT, "src/session/log/checks.generated.ts"), "utf8"));
  });

  const COMPACTION = {
    type: "compaction", id: "c1", parentId: "a1b2c3d4", timestamp: "t", n: 1, summary: "s", firstKeptEntryId: "a1b2c3d4",
    keptPrompts: ["p"], cutToolResults: [], window: 200000, tokensBefore: 1, tokensAfter: 1, provider: "anthropic", model: "m",
    usage: { input: 1, output: 2, cacheRead: 3 }, summarizedTurns: 2,
  };
  const valid: [keyof typeof allows, unknown][] = [
    ["SessionHeader", JSON.parse(SPEC.header)],
    ["MessageEntry", JSON.parse(SPEC.assistant)],
    ["MessageEntry", JSON.parse(SPEC.stampedToolResults)],
    ["MessageEntry", JSON.parse(SPEC.system)],
    ["CompactionEntry", COMPACTION],
    ["EntryBase", { type: "bookmark", id: "x", parentId: null, timestamp: "t", extra: [1] }],
  ];
  const ODD = [null, 0, -1, 1.5, "", "x", true, [], [1], {}, { type: "text" }, Number.NaN];

  /** The value with one random change somewhere inside it: a field removed, or replaced by a value of another kind. */
  function mutate(value: unknown, r: Random): unknown {
    if (typeof value !== "object" || value === null || r() < 0.2) return r.pick(ODD);
    const copy: Record<string, unknown> = Array.isArray(value) ? ([...value] as never) : { ...(value as Record<string, unknown>) };
    const keys = Object.keys(copy);
    if (keys.length === 0) return r.pick(ODD);
    const key = r.pick(keys);
    if (r() < 0.15 && !Array.isArray(copy)) delete copy[key];
    else copy[key] = mutate(copy[key], r);
    return copy;
  }

  test("give arktype's verdict on 20,000 mutated entries of every kind", () => {
    const r = prng(0x5eed);
    const disagreements: string[] = [];
    let accepted = 0;
    for (let i = 0; i < 20_000; i++) {
      const [schema, base] = r.pick(valid);
      let value = mutate(base, r);
      if (r() < 0.3) value = mutate(value, r);
      const ark = !(schemas[schema](value) instanceof ArkErrors);
      if (ark) accepted++;
      if (allows[schema](value) !== ark) disagreements.push(`${schema}: ${JSON.stringify(value)}`);
    }
    expect(disagreements.slice(0, 5)).toEqual([]);
    expect(accepted).toBeGreaterThan(1000); // both verdicts are exercised
    for (const [schema, value] of valid) expect(allows[schema](value)).toBe(true);
  });
});
