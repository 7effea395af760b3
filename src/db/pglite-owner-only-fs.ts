import { NodeFS } from '@electric-sql/pglite/nodefs';
import { PRIVATE_UMASK } from './private-data-dir.js';

/** The part of Emscripten's FS (PGlite's Module.FS) through which every mode on disk is set. */
interface ModeSetters {
  chmod(path: unknown, mode: number, dontFollow?: boolean): void;
  fchmod(fd: number, mode: number): void;
  mkdir(path: string, mode?: number): unknown;
}

type EmscriptenOptions = Parameters<NodeFS['init']>[1];

/**
 * PGlite's files on disk (NodeFS), with no permission for group or others whatever the process's umask. The process
 * umask alone does not do it: Emscripten creates a file, then sets the mode PostgreSQL asked for with a chmod, which no
 * umask narrows, after its own umask of 022 (PostgreSQL's fopen'd files, pg_internal.init, came out 0644, initdb's
 * files written out of its archive 0666). Every such mode goes through FS.chmod, FS.fchmod or FS.mkdir: each is
 * narrowed here before Emscripten sees it, from the module's first step (preRun), before initdb writes a file.
 */
export class OwnerOnlyNodeFS extends NodeFS {
  override async init(...args: Parameters<NodeFS['init']>): ReturnType<NodeFS['init']> {
    const { emscriptenOpts } = await super.init(...args);
    const preRun: NonNullable<EmscriptenOptions['preRun']> = [...(emscriptenOpts.preRun ?? []), (mod) => ownerOnly(mod.FS as unknown as ModeSetters)];
    return { emscriptenOpts: { ...emscriptenOpts, preRun } };
  }
}

function ownerOnly(fs: ModeSetters): void {
  const { chmod, fchmod, mkdir } = fs;
  const narrow = (mode: number) => mode & ~PRIVATE_UMASK;
  fs.chmod = (path, mode, dontFollow) => chmod.call(fs, path, narrow(mode), dontFollow);
  fs.fchmod = (fd, mode) => fchmod.call(fs, fd, narrow(mode));
  fs.mkdir = (path, mode = 0o777) => mkdir.call(fs, path, narrow(mode));
}
