/** Time comes from an injected clock so tests can move it; domain code never calls new Date(). */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock tests can set and advance. */
export class ManualClock implements Clock {
  private current: number;

  constructor(start: Date = new Date()) {
    this.current = start.getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  advanceSeconds(seconds: number): void {
    this.current += seconds * 1000;
  }

  set(date: Date): void {
    this.current = date.getTime();
  }
}
