// A tool call's main argument read from its input while the JSON still
// streams (src/ui/live/tool-input-peek.ts): however the text is cut, the value is
// the same, decoded, as soon as its characters arrive.
import { describe, expect, test } from "bun:test";
import { InputPeek } from "../../../src/ui/live/tool-input-peek";
import { prng } from "../../support/prng";

function peek(field: string | undefined, parts: string[]): InputPeek {
  const p = new InputPeek(field);
  for (const part of parts) p.push(part);
  return p;
}

describe("the main argument of a call still streaming", () => {
  test("the field's value as it arrives, then whole; the input's size in bytes", () => {
    const p = new InputPeek("path");
    p.push('{"pa');
    expect(p.value).toBeUndefined();
    p.push('th": "src/');
    expect(p).toMatchObject({ value: "src/", complete: false });
    p.push('a.ts", "content": "x');
    expect(p).toMatchObject({ value: "src/a.ts", complete: true, bytes: Buffer.byteLength('{"path": "src/a.ts", "content": "x') });
    p.push('é"}');
    expect(p.bytes).toBe(Buffer.byteLength('{"path": "src/a.ts", "content": "xé"}'));
  });

  test("escapes decoded, also cut in the middle; other fields, nested objects and the same name deeper down are skipped", () => {
    const json = JSON.stringify({ content: 'say "path": here\\ \u{1F600}', nested: { command: "no" }, list: ["command"], command: 'echo "hi"\n\ttab \u00e9 \u{1F600} \\ done' });
    const whole = peek("command", [json]);
    expect(whole).toMatchObject({ value: 'echo "hi"\n\ttab é 😀 \\ done', complete: true });
    // Any cutting into pieces gives the same value.
    const r = prng(7);
    for (let i = 0; i < 200; i++) {
      const cut: string[] = [];
      for (let from = 0; from < json.length; ) {
        const to = Math.min(json.length, from + r.int(1, 6));
        cut.push(json.slice(from, to));
        from = to;
      }
      expect(peek("command", cut)).toMatchObject({ value: whole.value, complete: true });
    }
  });

  test("a field that is not a string, or never comes, has no value; an unknown tool's call has only a size", () => {
    expect(peek("path", ['{"path": 12, "other": "x"}']).value).toBeUndefined();
    expect(peek("path", ['{"content": "path"}']).value).toBeUndefined();
    expect(peek(undefined, ['{"path": "a"}'])).toMatchObject({ value: undefined, bytes: 13 });
  });

  test("a long value is kept to what one line can show", () => {
    const p = peek("command", [`{"command": "${"x".repeat(50_000)}`]);
    expect(p.value!.length).toBe(1000);
    expect(p.complete).toBe(false);
  });
});
