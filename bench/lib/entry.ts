/**
 * How every bench process runs its `main`: SIGINT or SIGTERM cleans up and exits 130; a failure is printed (with
 * its stack) under the bench's name; `cleanup` runs whatever happened, and the process exits with main's code.
 * `cleanup` may be called twice (a signal during the final one), so it must be idempotent.
 */
export async function runBench(name: string, main: () => Promise<number>, cleanup: () => Promise<void>): Promise<never> {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      console.error(`\n${signal}: cleaning up`);
      void cleanup().finally(() => process.exit(130));
    });
  }
  let code = 1;
  try {
    code = await main();
  } catch (err) {
    console.error(`${name} failed: ${(err as Error).stack ?? (err as Error).message}`);
  } finally {
    await cleanup();
  }
  process.exit(code);
}
