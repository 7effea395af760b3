import { Type, type Static } from 'typebox';
import { EXPRESSION_MAX_LENGTH } from '../../domain/policies/expression.js';
import { LIMITS, RULE_TYPES, WINDOWS } from '../../domain/policies/rules.js';
import { Discriminated, OneOf } from './combinators.js';
import { ActingMemberFields } from './members.js';
import { Nullable, Uuid } from './onboarding/common.js';
import { FORMATS, patterned } from './patterns.js';

// Spending policies (docs/policies.md). Each rule type is written twice from one definition: as a request gives it
// (`...Input`) and as it is stored and shown, with each amount also in base units (`amountRaw`).

const assetAmountFields = (shown: boolean) => ({
  asset: patterned(FORMATS.assetSymbol, { description: 'The chain’s native coin (ETH on Ethereum and its L2s) or a token listed on it (list-tokens); any case', examples: ['USDC'] }),
  chainId: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'The chain the asset is on (CHAIN_RPC_URLS)' }),
  amount: patterned(FORMATS.decimal, { maxLength: 100, description: 'In the asset’s units, a decimal string with no more decimals than the asset has', examples: ['1000.50'] }),
  ...(shown ? { amountRaw: patterned(FORMATS.integer, { description: 'The same amount in base units', examples: ['1000500000'] }) } : {}),
});

function ruleSchemas(shown: boolean) {
  const name = (title: string) => (shown ? title : `${title}Input`);
  const options = (title: string, description: string) => ({ additionalProperties: false, title: name(title), description });
  return [
    Type.Object(
      {
        type: Type.Literal('max_amount'),
        ...assetAmountFields(shown),
        window: Type.Enum([...WINDOWS], { type: 'string', description: 'transaction: each transaction alone; 24h, 7d: the sum over that rolling window, the transaction included' }),
      },
      options('MaxAmountRule', 'What leaves the account in the asset may not exceed amount (an amount equal to it is allowed)'),
    ),
    Type.Object(
      {
        type: Type.Literal('allowed_destinations'),
        addresses: Type.Array(patterned(FORMATS.address), { minItems: 1, maxItems: LIMITS.addresses, description: 'The only recipients (or spenders) value may go to; any case' }),
      },
      options('AllowedDestinationsRule', 'Outgoing value only to these addresses: the decoded recipient or spender of a token call, or a native transfer’s'),
    ),
    Type.Object(
      {
        type: Type.Literal('new_destination_delay'),
        hours: Type.Integer({ minimum: 1, maximum: LIMITS.hours, description: 'How long a new destination waits' }),
      },
      options('NewDestinationDelayRule', 'A destination the account never sent to becomes usable this many hours after it was first used or added to the address book'),
    ),
    Type.Object(
      {
        type: Type.Literal('require_approvals'),
        above: Type.Object(assetAmountFields(shown), { additionalProperties: false, title: name('ApprovalThreshold'), description: 'Transactions above this amount need `approvals`' }),
        approvals: Type.Integer({ minimum: 1, maximum: LIMITS.approvals, description: 'Member approvals needed above the amount (an individual account: 1 at most)' }),
      },
      options('RequireApprovalsRule', 'Above the amount an entity’s transaction needs this many member approvals instead of its usual quorum'),
    ),
    Type.Object(
      {
        type: Type.Literal('expression'),
        expression: Type.String({ minLength: 1, maxLength: EXPRESSION_MAX_LENGTH, description: 'A CEL expression over chainId, amounts, destinations, to, selector, withdrawal and now (docs/policies.md#expression-rules)', examples: ['amounts["USDC"] <= 2500.0 || now.getHours("UTC") < 18'] }),
        description: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'What the rule is for, shown back and in a refusal’s detail' })),
      },
      options('ExpressionRule', 'Allows the transaction when the expression is true; false, or an evaluation error, refuses'),
    ),
  ] as const;
}

const [maxAmount, allowedDestinations, newDestinationDelay, requireApprovals, expression] = ruleSchemas(false);
const RuleInputSchema = Discriminated('type', [maxAmount, allowedDestinations, newDestinationDelay, requireApprovals, expression], {
  description: `A rule, by its type: ${RULE_TYPES.join(', ')}`,
});
export const RuleSchema = OneOf([...ruleSchemas(true)], { title: 'PolicyRule', description: 'A rule as stored: its asset as TOKENS spells it, its amounts also in base units, its addresses in lower case' });

export const CreatePolicyBody = Type.Object(
  {
    accountId: Type.Optional(Uuid('The one account the policy covers; absent: every account of the integrator, present and future')),
    rules: Type.Array(RuleInputSchema, { minItems: 1, maxItems: LIMITS.rules, description: 'Every rule applies (deny wins)' }),
  },
  { additionalProperties: false },
);

export const PolicySchema = Type.Object(
  {
    policyId: Uuid(),
    accountId: Nullable(Uuid('Null: every account of the integrator')),
    rules: Type.Array(RuleSchema),
    createdAt: Type.String({ format: 'date-time' }),
    deletedAt: Nullable(Type.String({ format: 'date-time', description: 'Set once deleted: the policy no longer applies' })),
  },
  { additionalProperties: false, title: 'SpendingPolicy', description: 'A spending policy (docs/policies.md)' },
);
export type PolicyBody = Static<typeof PolicySchema>;

export const PolicyPageSchema = Type.Object(
  { data: Type.Array(PolicySchema), hasMore: Type.Boolean({ description: 'More policies follow; pass the last policyId as startingAfter' }) },
  { additionalProperties: false, description: 'One page of the integrator’s policies in force, oldest first' },
);

export const ListPoliciesQuery = Type.Object(
  {
    accountId: Type.Optional(Uuid('Only the policies of this account (not the integrator-wide ones)')),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    startingAfter: Type.Optional(Uuid('The last policyId of the previous page')),
  },
  { additionalProperties: false },
);

/** DELETE's body, only for a policy of an entity account: one of its owners approves (docs/policies.md#who-may-change-a-policy). */
export const DeletePolicyBody = Type.Object(
  { ...ActingMemberFields },
  {
    additionalProperties: false,
    description: 'Only to delete a policy of an entity account: the owner who approves, and their approval over parameters {operation: "delete-policy", policyId, actingUserId}. Leave the body out otherwise',
  },
);

export const PolicyIdParams = Type.Object({ policyId: Uuid() }, { additionalProperties: false });
export const AccountIdParams = Type.Object({ accountId: Uuid() }, { additionalProperties: false });

export const AddressBookEntryBody = Type.Object(
  {
    address: patterned(FORMATS.address, { description: 'The destination; any case (stored in lower case)' }),
    label: patterned(FORMATS.notBlank, { maxLength: 100, description: 'What the integrator calls it' }),
  },
  { additionalProperties: false },
);

export const AddressBookEntrySchema = Type.Object(
  {
    address: patterned(FORMATS.lowercaseAddress, { description: 'Lower case; the cursor of the list (startingAfter)' }),
    accountId: Uuid(),
    label: Type.String(),
    usableAt: Type.String({ format: 'date-time', description: 'From when the account may send to it: when added, plus the largest new_destination_delay of the policies covering the account then' }),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false, title: 'AddressBookEntry' },
);

export const AddressBookPageSchema = Type.Object(
  { data: Type.Array(AddressBookEntrySchema), hasMore: Type.Boolean({ description: 'More entries follow; pass the last address as startingAfter' }) },
  { additionalProperties: false, description: 'One page of an account’s address book, oldest first' },
);

export const ListAddressBookQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    startingAfter: Type.Optional(patterned(FORMATS.address, { description: 'The last address of the previous page' })),
  },
  { additionalProperties: false },
);
