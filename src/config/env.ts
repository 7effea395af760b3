/**
 * Configuration mistakes: one per bad variable, all of them at once (loadConfig reads everything before it
 * throws). Entry points print each as its own line before exiting 78.
 */
export class ConfigError extends Error {
  readonly problems: readonly string[];
  constructor(problems: string | readonly string[]) {
    const list = typeof problems === 'string' ? [problems] : problems;
    super(list.join('\n'));
    this.problems = list;
  }
}

/**
 * The mistakes of several settings read together, every one of them noted instead of stopping at the first (one
 * start reports them all): `read` answers the value, or the fallback when it is wrong; `result` throws them all as
 * one ConfigError, or answers what was read.
 */
export class Problems {
  readonly list: string[] = [];

  read<T>(value: () => T, fallback: T): T {
    try {
      return value();
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      this.list.push(...err.problems);
      return fallback;
    }
  }

  note(problem: string): void {
    this.list.push(problem);
  }

  result<T>(value: T): T {
    if (this.list.length > 0) throw new ConfigError(this.list);
    return value;
  }
}

export function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
  }
  return Number(raw);
}

export function flag(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'on', 'yes'].includes(raw)) return true;
  if (['0', 'false', 'off', 'no'].includes(raw)) return false;
  throw new ConfigError(`${name} must be 1 or 0 (got "${raw}")`);
}

export function oneOf<T extends string>(env: NodeJS.ProcessEnv, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!allowed.includes(raw as T)) throw new ConfigError(`${name} must be one of ${allowed.join(', ')} (got "${raw}")`);
  return raw as T;
}

export function commaList(raw: string): string[] {
  return raw.split(',').map((part) => part.trim()).filter((part) => part !== '');
}

/** Runs a domain parser, prefixing its message with the variable's name so the one-line error says which. */
export function parsed<T>(name: string, parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    throw new ConfigError(`${name}: ${(err as Error).message}`);
  }
}
