import { join } from 'node:path';
import ts from 'typescript';
import { ROOT } from './root.js';


/**
 * The diagnostics of `files` under the repository's strict settings (ES modules, Node's resolution, Node's types):
 * what a reader's editor would show for code copied from the docs. Each as `file:line message`, names relative to `dir`.
 */
export function strictDiagnostics(files: string[], dir: string, options: { exactOptionalPropertyTypes?: boolean } = {}): string[] {
  const program = ts.createProgram(files, {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    types: ['node'],
    typeRoots: [join(ROOT, 'node_modules/@types')],
    strict: true,
    noUncheckedIndexedAccess: true,
    ...(options.exactOptionalPropertyTypes ? { exactOptionalPropertyTypes: true } : {}),
    skipLibCheck: true,
    noEmit: true,
  });
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file === undefined || files.includes(d.file.fileName))
    .map((d) => `${d.file ? `${d.file.fileName.slice(dir.length + 1)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}` : ''} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}
