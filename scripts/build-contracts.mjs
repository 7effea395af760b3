#!/usr/bin/env node
// Compiles contracts/*.sol with the pinned solc-js (package.json devDependencies) and writes
// contracts/artifacts/<Name>.json: the compiler version and settings, the sha256 of every source compiled, the ABI
// and the creation bytecode. The artifacts are committed so the server needs no compiler; the test suite compiles
// again and compares (test/chain/contract-artifacts.test.ts), so they can never drift from the sources.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const CONTRACTS = ['DemoToken', 'DemoVault', 'BalanceLens'];

/**
 * Fixed settings: the same sources give the same bytes. No metadata hash (it would embed the source paths' hashes
 * of this machine's layout); cancun, which anvil, Ethereum and Base all run.
 */
export const SETTINGS = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: 'cancun',
  metadata: { bytecodeHash: 'none', appendCBOR: false },
  outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
};

const sha256 = (text) => createHash('sha256').update(text).digest('hex');

/** Compiles every contract; returns the artifacts by name (what build writes). */
export function compileContracts() {
  const solc = require('solc');
  const sources = Object.fromEntries(CONTRACTS.map((name) => [`contracts/${name}.sol`, { content: readFileSync(join(ROOT, 'contracts', `${name}.sol`), 'utf8') }]));
  const used = {};
  const findImports = (path) => {
    try {
      const content = readFileSync(require.resolve(path, { paths: [ROOT] }), 'utf8');
      used[path] = sha256(content);
      return { contents: content };
    } catch {
      return { error: `not found: ${path}` };
    }
  };
  const output = JSON.parse(solc.compile(JSON.stringify({ language: 'Solidity', sources, settings: SETTINGS }), { import: findImports }));
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  const sourceHashes = { ...Object.fromEntries(Object.entries(sources).map(([path, s]) => [path, sha256(s.content)])), ...used };
  const sortedHashes = Object.fromEntries(Object.entries(sourceHashes).sort(([a], [b]) => a.localeCompare(b)));
  return Object.fromEntries(
    CONTRACTS.map((name) => {
      const contract = output.contracts[`contracts/${name}.sol`][name];
      return [name, { contractName: name, compiler: { version: solc.version(), settings: SETTINGS }, sources: sortedHashes, abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` }];
    }),
  );
}

export function artifactPath(name) {
  return join(ROOT, 'contracts', 'artifacts', `${name}.json`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const [name, artifact] of Object.entries(compileContracts())) {
    writeFileSync(artifactPath(name), `${JSON.stringify(artifact, null, 2)}\n`);
    console.log(`contracts/artifacts/${name}.json: ${(artifact.bytecode.length - 2) / 2} bytes`);
  }
}
