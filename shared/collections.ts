/** The value of `key`, inserting `make()` first when the map has none (what Map.getOrInsertComputed will do). */
export function getOrInsert<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = make();
    map.set(key, value);
  }
  return value;
}
