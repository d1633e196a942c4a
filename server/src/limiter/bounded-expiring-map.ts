// Entries remembered until a time of their own, in memory, with a bound: past `capacity` entries the
// oldest is forgotten first. The deny check's hits, the shadow log and the verdicts of the `user`
// source keep their callers here, so a flood of distinct callers costs memory up to the bound.
export class BoundedExpiringMap<Value> {
  private readonly entries = new Map<string, { readonly value: Value; readonly until: number }>();

  constructor(private readonly capacity: number) {}

  /** The value while it lasts (until > now), else undefined. */
  get(key: string, now: number): Value | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.until > now) return entry.value;
    this.entries.delete(key);
    return undefined;
  }

  set(key: string, value: Value, until: number): void {
    if (this.capacity === 0) return;
    this.entries.delete(key);
    if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, { value, until });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}
