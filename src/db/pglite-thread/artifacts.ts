import { readFile } from 'node:fs/promises';
import type { PGliteOptions } from '@electric-sql/pglite';

/** A compiled WebAssembly.Module, as PGlite takes it (@types/node declares no WebAssembly types of its own). */
type CompiledWasm = NonNullable<PGliteOptions['pgliteWasmModule']>;

/**
 * PGlite's WebAssembly (PostgreSQL, 9 MB) and its file-system bundle, read and compiled once per process and handed to
 * every engine thread it starts. Compiling took most of an engine's start (about 1.5 s of CPU on two cores, in the
 * thread and V8's compile threads), and a test process opens dozens of in-memory databases; one compiled module also
 * means one set of JIT code pages instead of a new set per engine, which V8 frees again when the thread ends.
 */
export interface EngineArtifacts {
  pgliteWasmModule: CompiledWasm;
  initdbWasmModule: CompiledWasm;
  fsBundle: ArrayBuffer;
}

const { compile } = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<CompiledWasm> } }).WebAssembly;

let artifacts: Promise<EngineArtifacts> | undefined;

export function engineArtifacts(): Promise<EngineArtifacts> {
  artifacts ??= load().catch((err: unknown) => {
    artifacts = undefined; // a failed read is not remembered: the next engine tries again
    throw err;
  });
  return artifacts;
}

async function load(): Promise<EngineArtifacts> {
  const dist = new URL('./', import.meta.resolve('@electric-sql/pglite'));
  const [pglite, initdb, bundle] = await Promise.all(['pglite.wasm', 'initdb.wasm', 'pglite.data'].map((name) => readFile(new URL(name, dist))));
  const [pgliteWasmModule, initdbWasmModule] = await Promise.all([compile(pglite!), compile(initdb!)]);
  const fsBundle = bundle!.buffer.slice(bundle!.byteOffset, bundle!.byteOffset + bundle!.byteLength) as ArrayBuffer;
  return { pgliteWasmModule, initdbWasmModule, fsBundle };
}
