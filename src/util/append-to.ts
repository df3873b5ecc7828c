/**
 * Appends `value` to the list `map` holds under `key`, starting the list when there is none. In place: copying the
 * list on every append (`map.set(k, [...(map.get(k) ?? []), v])`) is quadratic, and under one collection of 100k
 * records that is gigabytes of arrays learning builds and drops.
 */
export function appendTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
