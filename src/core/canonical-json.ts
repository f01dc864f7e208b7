// JSON where key order is not content: a child (or a JSON round trip) may reorder keys without a
// change. Zero-dependency: the cold-start lane's tool integrity uses it too.

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const canonical = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(canonical);
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .filter(key => value[key] !== undefined)
      .map(key => [key, canonical(value[key])]),
  );
};

/** The JSON text of a value with every object's keys sorted (undefined members left out). */
export const canonicalJson = (value: unknown): string => JSON.stringify(canonical(value));
