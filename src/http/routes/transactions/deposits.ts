import type { Api, Deps } from '../../types.js';

/** Fiat deposits (docs/deposits.md): create-deposit and the sandbox simulate-deposit. */
export function depositRoutes(_api: Api, _deps: Deps): void {}
