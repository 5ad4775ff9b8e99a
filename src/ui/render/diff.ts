// A line diff (Myers' O(ND) algorithm) and its unified hunks, for showing what
// write and edit changed. The inputs are small in practice: diff-view.ts first
// cuts both files down to the region that changed, plus context, by comparing
// bytes. A diff that would cost more than MAX_EDITS edits is given as "all of
// this was replaced", which is still a true diff, only not the shortest one.

export type DiffLine = { kind: " " | "-" | "+"; text: string; noNewline?: boolean };

export interface Hunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: DiffLine[];
}

export interface SideLines {
  lines: string[];
  /** The last line has no newline after it (the file ends there). */
  noNewline: boolean;
}

const MAX_EDITS = 1000;

/** The shortest edit script from `a` to `b` (or a replacement of the differing middle, past MAX_EDITS). */
export function diffLines(a: SideLines, b: SideLines): DiffLine[] {
  const key = (side: SideLines, i: number) => (side.noNewline && i === side.lines.length - 1 ? `${side.lines[i]}\0` : side.lines[i]!);
  const A = a.lines.map((_, i) => key(a, i));
  const B = b.lines.map((_, i) => key(b, i));
  const line = (side: SideLines, i: number, kind: DiffLine["kind"]): DiffLine =>
    side.noNewline && i === side.lines.length - 1 ? { kind, text: side.lines[i]!, noNewline: true } : { kind, text: side.lines[i]! };

  // Common head and tail first: most edits touch a few lines in the middle.
  let head = 0;
  while (head < A.length && head < B.length && A[head] === B[head]) head++;
  let tail = 0;
  while (tail < A.length - head && tail < B.length - head && A[A.length - 1 - tail] === B[B.length - 1 - tail]) tail++;

  const out: DiffLine[] = [];
  for (let i = 0; i < head; i++) out.push(line(a, i, " "));
  const middle = myers(A.slice(head, A.length - tail), B.slice(head, B.length - tail));
  let i = head;
  let j = head;
  for (const op of middle) {
    if (op === " ") out.push(line(a, i++, " ")), j++;
    else if (op === "-") out.push(line(a, i++, "-"));
    else out.push(line(b, j++, "+"));
  }
  for (let k = A.length - tail; k < A.length; k++) out.push(line(a, k, " "));
  return out;
}

/** Edit operations turning `a` into `b`: " " keep, "-" remove from a, "+" add from b. */
function myers(a: string[], b: string[]): DiffLine["kind"][] {
  const n = a.length;
  const m = b.length;
  if (n === 0 || m === 0) return [...Array<"-">(n).fill("-"), ...Array<"+">(m).fill("+")];
  const max = Math.min(n + m, MAX_EDITS);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) x++, y++;
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(trace, d, n, m);
    }
  }
  // Too different to be worth the search: everything in between was replaced.
  return [...Array<"-">(n).fill("-"), ...Array<"+">(m).fill("+")];
}

/** Walks the saved frontiers back from (n, m) to (0, 0). trace[d] holds v[-d-1 .. d+1] before round d. */
function backtrack(trace: Int32Array[], dEnd: number, n: number, m: number): DiffLine["kind"][] {
  const ops: DiffLine["kind"][] = [];
  let x = n;
  let y = m;
  for (let d = dEnd; d > 0; d--) {
    const v = trace[d]!; // frontier after round d-1, indexed k + d + 1
    const at = (k: number) => v[k + d + 1]!;
    const k = x - y;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const prevK = down ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) ops.push(" "), x--, y--;
    ops.push(down ? "+" : "-");
    x = prevX;
    y = prevY;
  }
  while (x > 0 && y > 0) ops.push(" "), x--, y--;
  return ops.reverse();
}

/** Unified hunks, `context` unchanged lines around each change; line numbers start at `firstLine`. */
export function hunks(lines: DiffLine[], context = 3, firstLine = 1): Hunk[] {
  const out: Hunk[] = [];
  const changed = lines.flatMap((l, i) => (l.kind === " " ? [] : [i]));
  if (!changed.length) return out;
  // Line numbers before each index.
  const oldAt: number[] = [];
  const newAt: number[] = [];
  let o = firstLine;
  let nn = firstLine;
  for (const l of lines) {
    oldAt.push(o);
    newAt.push(nn);
    if (l.kind !== "+") o++;
    if (l.kind !== "-") nn++;
  }
  let start = Math.max(0, changed[0]! - context);
  let end = Math.min(lines.length, changed[0]! + 1 + context);
  const close = () => {
    const slice = lines.slice(start, end);
    out.push({
      oldStart: oldAt[start]!,
      oldLines: slice.filter((l) => l.kind !== "+").length,
      newStart: newAt[start]!,
      newLines: slice.filter((l) => l.kind !== "-").length,
      lines: slice,
    });
  };
  for (const i of changed.slice(1)) {
    if (i - context <= end) end = Math.min(lines.length, i + 1 + context);
    else {
      close();
      start = i - context;
      end = Math.min(lines.length, i + 1 + context);
    }
  }
  close();
  return out;
}
