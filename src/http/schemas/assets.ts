import { Type } from 'typebox';
import { FORMATS, patterned } from './patterns.js';

/** `asset` of create-deposit and create-withdrawal (docs/tokens.md#deposits-and-withdrawals). */
export const AssetField = (moved: 'paid out' | 'taken') =>
  Type.Optional(
    patterned(FORMATS.assetSymbol, {
      description: `The crypto ${moved}: the symbol of a token listed on the chain (list-tokens; any case), e.g. "USDC". Absent: the chain’s native coin`,
      examples: ['USDC'],
    }),
  );
