/** A small least-recently-used map: the oldest entry is evicted (and handed to `onEvict`) past `capacity`. */
export class Lru<K, V> {
  readonly #map = new Map<K, V>();
  readonly #capacity: number;
  readonly #onEvict: (value: V) => void;

  constructor(capacity: number, onEvict: (value: V) => void = () => {}) {
    this.#capacity = Math.max(1, capacity);
    this.#onEvict = onEvict;
  }

  get(key: K): V | undefined {
    const v = this.#map.get(key);
    if (v !== undefined) {
      this.#map.delete(key);
      this.#map.set(key, v);
    }
    return v;
  }

  set(key: K, value: V): void {
    this.#map.delete(key);
    this.#map.set(key, value);
    while (this.#map.size > this.#capacity) {
      const [oldest, v] = this.#map.entries().next().value as [K, V];
      this.#map.delete(oldest);
      this.#onEvict(v);
    }
  }

  /** Removes the entry (without evicting it: its owner is done with it). */
  delete(key: K): boolean {
    return this.#map.delete(key);
  }

  get size(): number {
    return this.#map.size;
  }

  /** Empties the map, returning what it held. */
  clear(): V[] {
    const all = [...this.#map.values()];
    this.#map.clear();
    return all;
  }
}
