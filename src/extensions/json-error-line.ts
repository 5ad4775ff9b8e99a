// Where a JSON text first goes wrong, as a line number: JSON.parse in Bun says
// what is wrong but not where, and a person fixing a settings file needs
// `file:line`. A small scanner of the JSON grammar, run only on text that
// JSON.parse already refused.

/** The 1-based line of the first character that cannot continue valid JSON (the last line when the text ends too soon). */
export function jsonErrorLine(text: string): number {
  const at = firstError(text);
  let line = 1;
  for (let i = 0; i < at && i < text.length; i++) if (text[i] === "\n") line++;
  return line;
}

function firstError(text: string): number {
  let i = 0;
  const space = () => {
    while (i < text.length && " \t\r\n".includes(text[i]!)) i++;
  };
  // Each returns false at the first character that breaks the grammar, leaving `i` on it.
  const value = (): boolean => {
    space();
    const c = text[i];
    if (c === "{") return members("}", () => string() && (space(), text[i] === ":" ? (i++, value()) : false));
    if (c === "[") return members("]", value);
    if (c === '"') return string();
    const literal = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(i, i + 400));
    if (!literal) return false;
    i += literal[0].length;
    return true;
  };
  const members = (close: string, member: () => boolean): boolean => {
    i++;
    space();
    if (text[i] === close) return (i++, true);
    for (;;) {
      space();
      if (!member()) return false;
      space();
      if (text[i] === ",") i++;
      else if (text[i] === close) return (i++, true);
      else return false;
    }
  };
  const string = (): boolean => {
    if (text[i] !== '"') return false;
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text[i] === "\n") return false;
      i += text[i] === "\\" ? 2 : 1;
    }
    if (i >= text.length) return false;
    i++;
    return true;
  };
  if (!value()) return i;
  space();
  return i;
}
