/**
 * A stand-in for an object a suite's `before` hook makes (a server, a seeded integrator, a browser): given out when
 * the suite is declared, so a test file names it once (`const { server, tenants: [acme] } = useTenants(…)`) instead
 * of declaring a `let` and assigning it in a hook. From the hook on it is the object itself to every reader (its
 * properties, methods bound to it, spreading, `in`); read before the hook ran, it throws and says what.
 */
export function later<T extends object>(what: string): { value: T; set(value: T): void } {
  let target: T | undefined;
  const real = (property: PropertyKey): T => {
    if (target === undefined) throw new Error(`${what} is made in the suite's before hook: ${String(property)} was read earlier`);
    return target;
  };
  const value = new Proxy({} as T, {
    get(_stand, property) {
      const object = real(property);
      const v: unknown = Reflect.get(object, property, object);
      return typeof v === 'function' ? (v as (...args: unknown[]) => unknown).bind(object) : v;
    },
    has: (_stand, property) => Reflect.has(real(property), property),
    ownKeys: () => Reflect.ownKeys(real('keys')),
    getOwnPropertyDescriptor: (_stand, property) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(real(property), property);
      return descriptor && { ...descriptor, configurable: true };
    },
  });
  return {
    value,
    set(next) {
      target = next;
    },
  };
}
