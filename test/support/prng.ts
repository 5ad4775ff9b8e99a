// One seeded random generator for every test that picks random moments or
// inputs (kill times, fuzzed files and strings, disk-full loops): the same
// seed gives the same sequence on every machine, so a failure can be replayed.

export interface Random {
  /** A number in [0, 1). */
  (): number;
  /** An integer in [lo, hi]. */
  int(lo: number, hi: number): number;
  pick<T>(items: readonly T[]): T;
}

/** mulberry32: small, fast, and good enough to spread moments and bytes. */
export function prng(seed: number): Random {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return Object.assign(next, {
    int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
  });
}
