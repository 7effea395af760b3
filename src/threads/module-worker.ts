import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * A worker thread running the module `name` (without extension) beside the caller's module `from` (its
 * import.meta.url): the built .js, or from source (tests, development) the .ts loaded through tsx, as the caller is.
 */
export function moduleWorker(from: string, name: string, init: WorkerOptions = {}): Worker {
  if (!from.endsWith('.ts')) return new Worker(new URL(`./${name}.js`, from), init);
  const source = new URL(`./${name}.ts`, from);
  const tsx = import.meta.resolve('tsx/esm/api');
  return new Worker(`import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(source.href)}); });`, { ...init, eval: true });
}
