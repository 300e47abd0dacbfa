/** A clock tests move by hand: pass `clock.now` wherever a `now: () => number` is taken. */
export class ManualClock {
  constructor(private ms = Date.UTC(2026, 0, 1)) {}

  readonly now = (): number => this.ms;

  advance(ms: number): void {
    this.ms += ms;
  }

  set(ms: number): void {
    this.ms = ms;
  }
}
