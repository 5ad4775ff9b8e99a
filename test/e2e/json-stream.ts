// What every `awl -p --json` run must hold, for the tests of print-json*.test.ts.
import { expect } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { schemaError } from "../support/json-schema";
import { sessionFiles, type E2eFixture, type Run } from "./awl";

const SCHEMA = JSON.parse(readFileSync(join(import.meta.dir, "../../docs/session-format.schema.json"), "utf8"));

/** The session file's text ("" when there is none). */
export function fileText(fx: E2eFixture): string {
  const [file] = sessionFiles(fx.sessions);
  return file ? readFileSync(file, "utf8") : "";
}

export interface JsonRun {
  run: Run;
  /** The result line, parsed. */
  result: Record<string, any>;
  lines: string[];
}

/**
 * Runs `awl --json args`, checks what every such run must hold, and returns
 * the parsed result line: every stdout line valid against the published
 * schema, the first the file's header, the ones between exactly the bytes this
 * run appended to the file, the last a result whose exit code is the
 * process's and whose error stderr says too.
 */
export async function runJson(fx: E2eFixture, args: string[], options: Parameters<E2eFixture["run"]>[1] = {}): Promise<JsonRun> {
  const before = fileText(fx);
  return checkStream(fx, before, await fx.run(["--json", ...args], options));
}

/** The checks of runJson, on a run made otherwise (a signal, a pipe). */
export function checkStream(fx: E2eFixture, before: string, run: Run): JsonRun {
  const lines = run.stdout.split("\n");
  expect(lines.pop()).toBe(""); // ends with a newline
  for (const line of lines) expect({ line, error: schemaError(JSON.parse(line), SCHEMA) }).toEqual({ line, error: undefined });
  const result = JSON.parse(lines.at(-1)!);
  expect(result.type).toBe("result");
  expect(result.exitCode).toBe(run.code);
  const after = fileText(fx);
  if (result.sessionId === null) {
    expect(lines).toHaveLength(1);
  } else {
    expect(after.slice(0, after.indexOf("\n") + 1)).toBe(`${lines[0]}\n`);
    const appended = before ? after.slice(before.length) : after.slice(after.indexOf("\n") + 1);
    expect(lines.slice(1, -1).map((l) => `${l}\n`).join("")).toBe(appended);
    expect(JSON.parse(lines[0]!).id).toBe(result.sessionId);
  }
  if (result.error) expect(run.stderr).toContain(`awl: ${result.error.message}`);
  return { run, result, lines };
}
