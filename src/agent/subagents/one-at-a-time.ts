// The two ways subagents share what cannot be shared freely: the working tree
// and the person's attention (one at a time), and the model (a few at once).

/** Runs what it is given one at a time, in the order given: a failure of one does not stop the next. */
export class OneAtATime {
  #tail: Promise<unknown> = Promise.resolve();

  run<T>(work: () => Promise<T>): Promise<T> {
    const next = this.#tail.then(work, work);
    this.#tail = next.catch(() => {});
    return next;
  }
}

/** Runs what it is given with at most `limit` at once; the rest wait their turn, in order. */
export class AtMost {
  #running = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    // A finished run hands its place to the next waiting one, so none can slip in between.
    if (this.#running >= this.limit) await new Promise<void>((go) => this.#waiting.push(go));
    else this.#running++;
    try {
      return await work();
    } finally {
      const next = this.#waiting.shift();
      if (next) next();
      else this.#running--;
    }
  }
}
