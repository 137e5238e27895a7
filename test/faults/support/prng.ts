// A small seeded PRNG (mulberry32), so that one seed always gives the same fault schedule and
// the same sequence of requests in each load lane, whatever the timing of the run.

export class Prng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A generator of its own for a named part of the run (a lane, the fault plan). */
  fork(label: string): Prng {
    let hash = this.state ^ 0x9e3779b9;
    for (const char of label) {
      hash = Math.imul(hash ^ char.charCodeAt(0), 0x85ebca6b);
      hash ^= hash >>> 13;
    }
    return new Prng(hash >>> 0);
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) {
      throw new RangeError('pick from an empty list');
    }
    return items[Math.floor(this.next() * items.length)] as T;
  }

  shuffle<T>(items: readonly T[]): T[] {
    const copy = [...items];
    for (let index = copy.length - 1; index > 0; index -= 1) {
      const other = Math.floor(this.next() * (index + 1));
      [copy[index], copy[other]] = [copy[other] as T, copy[index] as T];
    }
    return copy;
  }

  /** A non-empty subset of the items, each kept with probability one half. */
  subset<T>(items: readonly T[]): T[] {
    const kept = items.filter(() => this.chance(0.5));
    return kept.length > 0 ? kept : [this.pick(items)];
  }
}
