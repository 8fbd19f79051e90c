/**
 * The read cached under `key`, or `read()` cached there. A read that fails (a lost
 * database) is dropped from the cache, so the next caller reads again instead of
 * getting the old failure back.
 */
export function cachedRead<K, V>(cache: Map<K, Promise<V>>, key: K, read: () => Promise<V>): Promise<V> {
  let value = cache.get(key);
  if (!value) {
    const reading = read();
    reading.catch(() => {
      if (cache.get(key) === reading) cache.delete(key);
    });
    cache.set(key, reading);
    value = reading;
  }
  return value;
}
