// The byte offset awl names when stdin is not UTF-8: the first byte that
// starts no valid sequence, agreeing with the runtime's own UTF-8 check.
import { expect, test } from "bun:test";
import { isUtf8 } from "node:buffer";
import { firstInvalidByte } from "../../src/cli/stdin";
import { prng } from "../support/prng";

test("names the first bad byte: a stray continuation, a cut sequence, an overlong form, a surrogate, past U+10FFFF", () => {
  const at = (...bytes: number[]) => firstInvalidByte(Uint8Array.from(bytes));
  expect(at(0x61, 0x80)).toBe(1);
  expect(at(0x61, 0xe2, 0x82)).toBe(1); // € cut short
  expect(at(0xc0, 0xaf)).toBe(0);
  expect(at(0xed, 0xa0, 0x80)).toBe(0);
  expect(at(0xf4, 0x90, 0x80, 0x80)).toBe(0);
  expect(at(0x61, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80)).toBe(8); // all valid
});

test("agrees with the runtime's own check on random bytes near UTF-8", () => {
  const r = prng(21);
  const pieces = [[0x61], [0xc3, 0xa9], [0xe2, 0x82, 0xac], [0xf0, 0x9f, 0x98, 0x80], [0x80], [0xff], [0xed, 0xa0, 0x80], [0xe0, 0x80, 0x80], [0xc3]];
  for (let n = 0; n < 5000; n++) {
    const bytes = Uint8Array.from(Array.from({ length: 1 + Math.floor(r() * 6) }, () => r.pick(pieces)).flat());
    const bad = firstInvalidByte(bytes);
    expect(bad === bytes.length).toBe(isUtf8(bytes));
    expect(isUtf8(bytes.subarray(0, bad))).toBe(true);
  }
});
