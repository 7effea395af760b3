/**
 * A route option that may be given as one value or several (its method, each of its hooks) as a list: the onRoute
 * hooks that add a hook to a route, or read its methods, start from this.
 */
export function listOf<T>(value: T | T[] | undefined): T[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}
