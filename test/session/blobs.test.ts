// Blob collection: only file_change and bash_effects lines keep a blob; young
// blobs are spared; a session that cannot be read stops the collection before
// anything is deleted.
import { expect, test } from "bun:test";
import { existsSync, mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { UserError } from "../../src/errors";
import { collectBlobs, referencedHashes } from "../../src/session/checkpoints/blobs";
import { useSessionRoot } from "./helpers";

const root = useSessionRoot();
const hash = (c: string) => c.repeat(64);
const old = (path: string) => utimesSync(path, new Date(Date.now() - 2 * 3_600_000), new Date(Date.now() - 2 * 3_600_000));

function setUp() {
  const sessions = process.env.AWL_SESSION_DIR!;
  const folder = join(sessions, "--proj--");
  mkdirSync(join(sessions, ".blobs"), { recursive: true });
  mkdirSync(folder, { recursive: true });
  const file = join(folder, "s.jsonl");
  writeFileSync(
    file,
    [
      '{"type":"session","version":1,"id":"s","timestamp":"t","cwd":"/proj","provider":"p","model":"m"}',
      `{"type":"file_change","id":"f1","parentId":null,"timestamp":"t","path":"/a","before":"${hash("a")}","after":null,"mode":420}`,
      `{"type":"bash_effects","id":"f2","parentId":"f1","timestamp":"t","created":[{"path":"/b","after":"${hash("b")}"}],"modified":[],"deleted":[],"untracked":[]}`,
      // A hash in a message is not a reference: the text only talks about it.
      `{"type":"message","id":"m1","parentId":"f2","timestamp":"t","message":{"role":"user","content":[{"type":"text","text":"${hash("c")}"}]}}`,
    ].join("\n") + "\n",
  );
  const blob = (c: string) => join(sessions, ".blobs", hash(c));
  for (const c of "abcd") {
    writeFileSync(blob(c), c);
    if (c !== "d") old(blob(c));
  }
  return { file, folder, blob };
}

test("only checkpoint entries keep blobs; an unreferenced blob younger than an hour is spared", () => {
  root();
  const { file, blob } = setUp();
  expect([...referencedHashes([file])].sort()).toEqual([hash("a"), hash("b")]);
  const result = collectBlobs([file]);
  expect(result.deleted.map((b) => b.hash)).toEqual([hash("c")]);
  expect(result).toMatchObject({ young: 1, kept: 2 });
  expect(["a", "b", "c", "d"].map((c) => existsSync(blob(c)))).toEqual([true, true, false, true]);
});

test("a session that cannot be read stops the collection: nothing is deleted", () => {
  root();
  const { file, folder, blob } = setUp();
  const broken = join(folder, "broken.jsonl");
  mkdirSync(broken); // a folder where a session file should be: reading it fails
  expect(() => collectBlobs([file, broken])).toThrow(UserError);
  expect(existsSync(blob("c"))).toBe(true);
});
