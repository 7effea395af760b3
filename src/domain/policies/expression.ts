import type * as CelJs from '@marcbachmann/cel-js';
import { formatUnits } from 'viem';
import type { PolicyAsset } from './policy-assets.js';
import { onFirstUse } from '../../on-first-use.js';
import type { SpendFacts } from './spend-facts.js';

// The `expression` rule (docs/policies.md#expression-rules): a CEL expression (https://cel.dev, through the maintained
// @marcbachmann/cel-js) over the same facts the other rules judge. It allows the transaction when it is true; false,
// or an evaluation error, refuses (a policy fails closed). CEL cannot loop, call out or reach the runtime; the limits
// below bound what one expression may cost.

/** The longest expression a rule may hold, in characters. */
export const EXPRESSION_MAX_LENGTH = 2_000;

/** Timestamps are protobuf's in CEL; the library names the type so. */
const TIMESTAMP = 'google.protobuf.Timestamp';

const celJs = onFirstUse<typeof CelJs>('@marcbachmann/cel-js');
let environment: CelJs.Environment | undefined;

/** What an expression sees (the documented list; every variable is always present), made with the first expression. */
const env = (): CelJs.Environment =>
  (environment ??= new (celJs().Environment)({ limits: { maxAstNodes: 400, maxDepth: 32, maxListElements: 100, maxMapEntries: 100, maxCallArguments: 8 } })
  .registerVariable('chainId', 'int', { description: 'The transaction’s chain' })
  .registerVariable('amounts', 'map<string, double>', { description: 'What leaves the wallet per asset symbol, in the asset’s units; every asset of the chain is present (0 when none moves)' })
  .registerVariable('destinations', 'list<string>', { description: 'Where value goes: recipients, spenders, vault receivers, lower case' })
  .registerVariable('to', 'string', { description: 'The address the transaction calls or pays, lower case' })
  .registerVariable('selector', 'string', { description: 'The called function’s 4-byte selector (0x and 8 hex digits), "" for a plain payment' })
  .registerVariable('withdrawal', 'bool', { description: 'It pays the service’s treasury for a withdrawal' })
  .registerVariable('now', TIMESTAMP, { description: 'The server’s time of the judgement' }));

/** A checked expression, parsed once. */
export interface CompiledExpression {
  source: string;
  run(context: Record<string, unknown>): unknown;
}

/** Why an expression cannot be a rule (it does not parse, does not type-check, or is not a boolean), or undefined. */
export function expressionProblem(source: string): string | undefined {
  if (source.length > EXPRESSION_MAX_LENGTH) return `is longer than ${EXPRESSION_MAX_LENGTH} characters`;
  let checked: ReturnType<CelJs.Environment['check']>;
  try {
    checked = env().check(source);
  } catch (err) {
    return firstLine(err);
  }
  if (!checked.valid) return firstLine(checked.error);
  if (checked.type !== 'bool') return `must be a boolean expression (this one is ${checked.type})`;
  return undefined;
}

/** Parses a stored (so already checked) expression for evaluation. */
export function compileExpression(source: string): CompiledExpression {
  const parsed = env().parse(source);
  return { source, run: (context) => parsed(context) };
}

/** What the expression judges by: the transaction's facts, in the asset's units, with every asset of the chain present. */
export interface ExpressionInput {
  facts: SpendFacts;
  to: string | undefined;
  data: string | undefined;
  withdrawal: boolean;
  now: Date;
  /** The assets of the transaction's chain: the native coin and each listed token. */
  assets: readonly PolicyAsset[];
}

export function expressionContext(input: ExpressionInput): Record<string, unknown> {
  const amounts = new Map<string, number>();
  for (const asset of input.assets) amounts.set(asset.symbol, Number(formatUnits(input.facts.outflows.get(asset.key) ?? 0n, asset.decimals)));
  return {
    chainId: BigInt(input.facts.chainId),
    amounts,
    destinations: input.facts.destinations,
    to: (input.to ?? '').toLowerCase(),
    selector: input.data && input.data.length >= 10 ? input.data.slice(0, 10).toLowerCase() : '',
    withdrawal: input.withdrawal,
    now: input.now,
  };
}

/** The refusal's detail when the expression is not true for the context (false, or it failed), else undefined. */
export function expressionRefuses(expression: CompiledExpression, context: Record<string, unknown>): string | undefined {
  try {
    const value = expression.run(context);
    return value === true ? undefined : `the expression ${JSON.stringify(expression.source)} is ${String(value)}`;
  } catch (err) {
    return `the expression ${JSON.stringify(expression.source)} failed: ${firstLine(err)}`;
  }
}

const firstLine = (err: unknown): string => (err instanceof Error ? err.message : String(err)).split('\n')[0]!.trim();
