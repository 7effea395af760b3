import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
// The build script itself: what `npm run build:contracts` writes is what this compiles.
// @ts-expect-error a plain ES module without types
import { artifactPath, compileContracts, CONTRACTS } from '../../scripts/build-contracts.mjs';

describe('contract artifacts (contracts/artifacts)', () => {
  it('are exactly what the pinned compiler makes of the sources today: no unverifiable blob', () => {
    const pinned = (JSON.parse(readFileSync('package.json', 'utf8')) as { devDependencies: Record<string, string> }).devDependencies.solc!;
    const fresh = compileContracts() as Record<string, { compiler: { version: string }; abi: unknown; bytecode: string; sources: Record<string, string> }>;
    for (const name of CONTRACTS as string[]) {
      const committed = JSON.parse(readFileSync(artifactPath(name), 'utf8')) as { bytecode: string; sources: Record<string, string> };
      assert.ok(fresh[name]!.compiler.version.startsWith(`${pinned}+`), `solc ${fresh[name]!.compiler.version} is the pinned ${pinned}`);
      assert.deepEqual(committed, fresh[name], `${name}: run npm run build:contracts and commit the artifacts`);
      assert.ok(committed.bytecode.length > 1000);
      assert.ok(Object.keys(committed.sources).some((p) => p.startsWith('@openzeppelin/contracts/')), 'built on OpenZeppelin');
    }
  });
});
