// docs/session-format.schema.json: what build.ts generates from the arktype
// schemas today, and as strict as they are on the lines a script will meet.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { schemaError } from "../support/json-schema";
import { SPEC } from "./helpers";

const ROOT = join(import.meta.dir, "../..");
const SCHEMA = JSON.parse(readFileSync(join(ROOT, "docs/session-format.schema.json"), "utf8"));
const valid = (line: unknown) => schemaError(line, SCHEMA) === undefined;

describe("the published JSON Schema", () => {
  test("is what build.ts generates from the schemas today (run `bun run build` after changing one)", () => {
    const script = `const { jsonSchemaSource } = await import(${JSON.stringify(join(ROOT, "build.ts"))}); process.stdout.write(await jsonSchemaSource());`;
    const child = Bun.spawnSync(["bun", "-e", script], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
    expect(child.stderr.toString()).toBe("");
    expect(child.stdout.toString()).toBe(readFileSync(join(ROOT, "docs/session-format.schema.json"), "utf8"));
  });

  test("takes the spec's lines, a result line, and entries of kinds it does not know", () => {
    for (const line of Object.values(SPEC)) expect({ line, error: schemaError(JSON.parse(line), SCHEMA) }).toEqual({ line, error: undefined });
    expect(valid({ type: "result", status: "ok", sessionId: null, exitCode: 0, usage: { input: 0, output: 0 } })).toBe(true);
    expect(valid({ type: "result", status: "error", sessionId: "s", exitCode: 1, usage: { input: 1, output: 2 }, error: { message: "m" } })).toBe(true);
    expect(valid({ type: "label", id: "x", parentId: null, timestamp: "t", label: "v1" })).toBe(true);
  });

  test("refuses a known kind that is wrong, a result without its fields, and what is no line at all", () => {
    const message = JSON.parse(SPEC.assistant);
    expect(valid({ ...message, message: { ...message.message, role: "robot" } })).toBe(false);
    expect(valid({ ...message, message: undefined })).toBe(false);
    expect(valid({ type: "result", status: "ok", sessionId: null, usage: { input: 0, output: 0 } })).toBe(false);
    expect(valid({ type: "result", status: "fine", sessionId: null, exitCode: 0, usage: { input: 0, output: 0 } })).toBe(false);
    expect(valid({ ...JSON.parse(SPEC.header), version: 0 })).toBe(false);
    expect(valid({ type: "label", id: "", parentId: null, timestamp: "t" })).toBe(false);
    expect(valid([])).toBe(false);
  });
});
