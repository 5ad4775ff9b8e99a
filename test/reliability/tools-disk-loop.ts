// The full-disk loop of issue 11's bar, shared by the test (a tiny tmpfs, run
// in the test's own process) and its fallback (a child process under
// `prlimit --fsize`, where a write past the limit fails with EFBIG). Seeded
// random edits and writes through runTool, many of them too big for the room
// left; after every call each file is compared with what it must hold: the
// new bytes after a success, the old bytes, every one of them, after a failure.
//
//   bun test/reliability/tools-disk-loop.ts DIR OPS SEED ROOM   (prints the counts as JSON)

import { chmodSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runTool } from "../../src/tools";
import { prng as random } from "../support/prng";

export interface LoopCounts {
  edits: number;
  writes: number;
  succeeded: number;
  /** Failed with ENOSPC or EFBIG, as they should when there is no room. */
  failedForRoom: number;
  /** Any file not byte-identical to what it held before a failed call. */
  originalsChanged: number;
  /** A successful call whose file does not hold exactly the expected bytes. */
  wrongAfterSuccess: number;
  temporaryFilesLeft: number;
  modesLost: number;
  /** Failures that were not about room, worded as the tool worded them. */
  otherErrors: string[];
}

const FILES = 4;
const MODE = 0o640;
/** Not UTF-8, so an edit that decoded and re-encoded the file would change them. */
const LEGACY_BYTES = Buffer.from([0xff, 0xfe, 0xe9, 0x80, 0xc3]);


/**
 * Creates the files (a few KB each, with bytes that are not UTF-8). Call it
 * before the disk is filled: `fullDiskLoop` runs on what it leaves.
 */
export function createFiles(dir: string, room: number): void {
  for (let i = 0; i < FILES; i++) {
    const path = join(dir, `f${i}.txt`);
    writeFileSync(path, Buffer.concat([Buffer.from(`@@mark-f${i}-0@@\n`), LEGACY_BYTES, Buffer.from(`\n${"text ".repeat(Math.floor(room / 40))}\n`)]));
    chmodSync(path, MODE);
  }
}

/** `ops` edits and writes; `room` is about what the disk has left, so that many calls fit and many do not. */
export async function fullDiskLoop(dir: string, ops: number, seed: number, room: number): Promise<LoopCounts> {
  const next = random(seed);
  const counts: LoopCounts = { edits: 0, writes: 0, succeeded: 0, failedForRoom: 0, originalsChanged: 0, wrongAfterSuccess: 0, temporaryFilesLeft: 0, modesLost: 0, otherErrors: [] };
  const names = Array.from({ length: FILES }, (_, i) => `f${i}.txt`);
  const truth = new Map(names.map((name) => [name, readFileSync(join(dir, name))]));
  const marks = new Map(names.map((name, i) => [name, `@@mark-f${i}-0@@`]));
  const context = { cwd: dir, signal: new AbortController().signal };
  const text = (bytes: number) => Array.from({ length: Math.ceil(bytes / 64) }, () => `${"abcdefghij klmnop".repeat(4).slice(0, 63)}\n`).join("").slice(0, bytes);

  for (let op = 1; op <= ops; op++) {
    const name = names[Math.floor(next() * FILES)]!;
    // A third small enough to fit, the rest from half the room to twice it.
    const size = next() < 0.35 ? Math.floor(next() * 2048) : Math.floor(room / 2 + next() * room * 1.5);
    const mark = `@@mark-${name}-${op}@@`;
    const before = truth.get(name)!;
    let expected: Buffer;
    let out;
    if (next() < 0.5) {
      counts.edits++;
      const oldMark = marks.get(name)!;
      const newText = `${text(size)}${mark}`;
      const at = before.indexOf(oldMark);
      expected = Buffer.concat([before.subarray(0, at), Buffer.from(newText), before.subarray(at + Buffer.byteLength(oldMark))]);
      out = await runTool("edit", JSON.stringify({ path: name, oldText: oldMark, newText }), context);
    } else {
      counts.writes++;
      const content = `${mark}\n${text(size)}`;
      expected = Buffer.from(content);
      out = await runTool("write", JSON.stringify({ path: name, content }), context);
    }

    if (out.isError) {
      if (/no space left|file too large/i.test(out.content)) counts.failedForRoom++;
      else counts.otherErrors.push(out.content);
    } else {
      counts.succeeded++;
      const written = readFileSync(join(dir, name));
      if (!written.equals(expected)) counts.wrongAfterSuccess++;
      truth.set(name, written);
      marks.set(name, mark);
    }
    // Every file, not only the one called: nothing else may have moved either.
    for (const [file, bytes] of truth) {
      if (!readFileSync(join(dir, file)).equals(bytes)) {
        counts.originalsChanged++;
        truth.set(file, readFileSync(join(dir, file))); // count each damage once
      }
      if ((statSync(join(dir, file)).mode & 0o7777) !== MODE) counts.modesLost++;
    }
    counts.temporaryFilesLeft += readdirSync(dir).filter((entry) => entry.endsWith(".awl-tmp")).length;
  }
  return counts;
}

if (import.meta.main) {
  const [dir, ops, seed, room] = process.argv.slice(2);
  createFiles(dir!, Number(room));
  console.log(JSON.stringify(await fullDiskLoop(dir!, Number(ops), Number(seed), Number(room))));
}
