import { Type } from 'typebox';

/** `asset` of create-deposit and create-withdrawal (docs/tokens.md#deposits-and-withdrawals). */
export const AssetField = (moved: 'paid out' | 'taken') =>
  Type.Optional(
    Type.String({
      pattern: '^[A-Za-z][A-Za-z0-9.]{0,10}$',
      description: `The crypto ${moved}: the symbol of a token listed on the chain (list-tokens; any case), e.g. "USDC". Absent: the chain’s native coin`,
      examples: ['USDC'],
    }),
  );
