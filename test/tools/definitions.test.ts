// The tool definitions sent to the model come from a file the build generates
// (so the first request does not wait for arktype): it must say what the
// tools themselves say today.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { toolDefinitionsSource } from "../../build";
import { toolDefinitions, tools } from "../../src/tools";

test("definitions.generated.ts is what build.ts makes from the tools today (run `bun run build` after changing one)", async () => {
  expect(await toolDefinitionsSource()).toBe(readFileSync(join(import.meta.dir, "../../src/tools/definitions.generated.ts"), "utf8"));
  expect(toolDefinitions()).toEqual(tools().map(({ name, description, inputSchema }) => ({ name, description, inputSchema })));
});
