import { describe, expect, test } from "bun:test";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { runTool, toolDefinitions, toolSummary } from "../../src/tools";
import { call, tempDir } from "./helpers";

const context = (cwd: string) => ({ cwd, signal: new AbortController().signal });

describe("runTool", () => {
  test("an unknown tool is an error result naming it", async () => {
    const out = await runTool("fly", "{}", context(await tempDir()));
    expect(out.isError).toBe(true);
    expect(out.content).toStartWith("unknown tool fly");
  });

  test("input that is not JSON is an error result", async () => {
    const out = await runTool("bash", '{"command": "ls"', context(await tempDir()));
    expect(out.isError).toBe(true);
    expect(out.content).toStartWith("bash: input is not valid JSON");
  });

  test("input violating the schema is a one-line error naming the field", async () => {
    const dir = await tempDir();
    expect(await call("bash", { command: 42 }, dir)).toEqual({ content: "bash: command must be a string (was a number)", isError: true });
    expect(await call("read", {}, dir)).toEqual({ content: "read: path must be a string (was missing)", isError: true });
    expect(await call("edit", { path: "f", oldText: "a", newText: "b", extra: 1 }, dir)).toEqual({
      content: "edit: extra is not a known field",
      isError: true,
    });
    expect(await call("write", ["f"], dir)).toEqual({ content: "write: input must be a JSON object (was an array)", isError: true });
    expect(await call("read", "f", dir)).toEqual({ content: "read: input must be a JSON object (was a string)", isError: true });
  });

  test("empty arguments count as an empty object, so the missing field is named", async () => {
    const out = await runTool("bash", "", context(await tempDir()));
    expect(out).toEqual({ content: "bash: command must be a string (was missing)", isError: true });
  });

  test("an exception inside a tool becomes an error result", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, "file"), "");
    // Creating the parent "file/" fails: a file stands where a directory must go.
    const out = await call("write", { path: "file/child.txt", content: "x" }, dir);
    expect(out.isError).toBe(true);
    expect(out.content).toStartWith("write failed: ");
  });
});

describe("toolDefinitions", () => {
  test("lists the five tools with plain object schemas", () => {
    const definitions = toolDefinitions();
    expect(definitions.map((d) => d.name)).toEqual(["bash", "read", "write", "edit", "task"]);
    for (const { description, inputSchema } of definitions) {
      expect(description.length).toBeGreaterThan(0);
      expect(inputSchema.$schema).toBeUndefined();
      expect(inputSchema.type).toBe("object");
      expect(inputSchema.additionalProperties).toBe(false);
      expect(Array.isArray(inputSchema.required)).toBe(true);
      for (const property of Object.values(inputSchema.properties as Record<string, { description?: string }>)) {
        expect(property.description).toBeString();
      }
    }
    expect(definitions.find((d) => d.name === "bash")?.inputSchema.required).toEqual(["command"]);
    expect(definitions.find((d) => d.name === "edit")?.inputSchema.required).toEqual(["newText", "oldText", "path"]);
  });
});

describe("toolSummary", () => {
  test("is the command for bash and the path for the others", () => {
    expect(toolSummary("bash", JSON.stringify({ command: "ls -la" }))).toBe("ls -la");
    expect(toolSummary("read", JSON.stringify({ path: "src/a.ts", offset: 3 }))).toBe("src/a.ts");
    expect(toolSummary("write", JSON.stringify({ path: "b.txt", content: "" }))).toBe("b.txt");
    expect(toolSummary("edit", JSON.stringify({ path: "c.ts", oldText: "a", newText: "b" }))).toBe("c.ts");
  });

  test("is empty for input it cannot read", () => {
    expect(toolSummary("bash", '{"command": "ls')).toBe("");
    expect(toolSummary("bash", "{}")).toBe("");
    expect(toolSummary("fly", '{"path": "x"}')).toBe("");
  });
});
