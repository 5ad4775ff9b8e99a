// awl --help and the README's environment table name every provider's
// variables: both come from, or are checked against, the providers' table
// (src/providers/registry.ts), so a provider added as a row is documented.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { help } from "../../src/cli/help";
import { providerRows } from "../../src/providers/registry";

const variablesOf = () => providerRows().flatMap((row) => [row.keyVariable, row.baseUrlVariable, ...(row.variables ?? []).map((v) => v.name)]);

test("--help lists every provider and each of its variables, one line each, under Environment", () => {
  const text = help();
  expect(text).toContain(`--provider <name>        ${providerRows().map((row) => row.name).join(" or ")} (default:`);
  const environment = text.slice(text.indexOf("\nEnvironment:\n"));
  for (const name of variablesOf()) expect(environment).toMatch(new RegExp(`^  ${name} +\\S`, "m"));
});

test("the README's environment table names every provider's variables", () => {
  const readme = readFileSync(join(import.meta.dir, "../../README.md"), "utf8");
  const table = readme.slice(readme.indexOf("\n## Environment\n"), readme.indexOf("\n## ", readme.indexOf("\n## Environment\n") + 1));
  expect(table.length).toBeGreaterThan(0);
  for (const name of variablesOf()) expect(table).toContain(`\`${name}\``);
});

test("--help says what answering always allows as approvals decide it: the tool, a subcommand, or the exact command", () => {
  const modes = help().slice(help().indexOf("\nApproval modes:"));
  const said = modes.replace(/\s+/g, " ");
  expect(said).not.toContain("program and first argument");
  expect(said).toContain("for write and edit the tool");
  expect(said).toContain("for a command its subcommand with any arguments (git add …, npm run …");
  expect(said).toContain("only that exact command");
});
