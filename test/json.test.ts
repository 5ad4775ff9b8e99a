import { expect, test } from "bun:test";
import { jsonByteLength } from "../src/json";

const exact = (value: unknown) => expect(jsonByteLength(value)).toBe(Buffer.byteLength(JSON.stringify(value)));

test("the counted size of JSON is the size of what JSON.stringify writes, escapes and all", () => {
  const strings = ["", "plain", 'a "quoted" \\ path', "\n\r\t\b\f", "\u0000\u0001\u001f\u007f", "é ✓ 日本 🌍", "\u2028\u2029", "\ud800 lone high", "lone low \udc00", "\udc00\ud800 reversed", "pair 🌍 then lone \ud83c"];
  for (const s of strings) exact(s);
  for (const n of [0, -0, 1, -1.5, 1e21, 1e-7, 123456789.123, Number.MAX_VALUE, Number.NaN, Infinity]) exact(n);
  for (const v of [true, false, null, [], {}, [1, "a", null], [undefined, () => 1], { a: undefined, b: 1, c: () => 1 }, { "ke\"y": { nested: ["é", { deep: "\u0001" }] } }]) exact(v);
  exact({ date: new Date(0), list: [new Date(1)] }); // toJSON
});

test("a thousand random JSON values, as a tool's input or a message might hold, count exactly", () => {
  let seed = 42;
  const random = (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff), seed % n);
  const alphabet = ["a", " ", '"', "\\", "\n", "\u0003", "é", "✓", "🌍", "\ud800", "\udfff", "\u2028", "{", "日"];
  const value = (depth: number): unknown => {
    switch (random(depth > 3 ? 4 : 6)) {
      case 0: return Array.from({ length: random(12) }, () => alphabet[random(alphabet.length)]).join("");
      case 1: return random(2) ? random(1e6) / (random(100) + 1) : -random(1e9);
      case 2: return [true, false, null][random(3)];
      case 3: return random(3) ? "text" : undefined;
      case 4: return Array.from({ length: random(5) }, () => value(depth + 1));
      default: return Object.fromEntries(Array.from({ length: random(5) }, () => [String(value(9) ?? "k"), value(depth + 1)]));
    }
  };
  for (let i = 0; i < 1000; i++) {
    const v = { role: "user", content: [value(0), value(0)] };
    exact(v);
  }
});
