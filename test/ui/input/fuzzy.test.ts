// The @ picker's order (src/ui/input/fuzzy.ts): what a person typing a few
// letters of a file's name expects first.
import { expect, test } from "bun:test";
import { fuzzyPick } from "../../../src/ui/input/fuzzy";

const paths = ["docs/design/tree.md", "src/date.ts", "src/data/table.ts", "test/date.test.ts", "README.md"];

test("letters in order, case ignored; a match in the file's name first, then the shorter path", () => {
  expect(fuzzyPick(paths, "dte", 2)).toEqual(["src/date.ts", "test/date.test.ts"]);
  expect(fuzzyPick(paths, "READ", 5)).toEqual(["README.md"]);
  expect(fuzzyPick(paths, "zzz", 5)).toEqual([]);
});

test("words apart must each match; no query lists the paths as they are", () => {
  expect(fuzzyPick(paths, "date test", 5)).toEqual(["test/date.test.ts"]);
  expect(fuzzyPick(paths, "", 2)).toEqual(["docs/design/tree.md", "src/date.ts"]);
});
