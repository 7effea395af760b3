import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodeFunctionData, parseAbi } from 'viem';
import { compileExpression, expressionContext, expressionProblem, expressionRefuses, EXPRESSION_MAX_LENGTH } from '../../../src/domain/policies/expression.js';
import type { PolicyAsset } from '../../../src/domain/policies/policy-assets.js';

// The expression rule's language (docs/policies.md#expression-rules): what is refused when the policy is created, and
// what an expression sees and answers when a transaction is judged (true allows; false or an error refuses).

const TOKEN = `0x${'ab'.repeat(20)}`;
const ASSETS: PolicyAsset[] = [
  { symbol: 'ETH', decimals: 18, key: 'native' },
  { symbol: 'USDC', decimals: 6, key: TOKEN },
];
const RECIPIENT = `0x${'12'.repeat(20)}`;
const transfer = encodeFunctionData({ abi: parseAbi(['function transfer(address to, uint256 amount)']), functionName: 'transfer', args: [RECIPIENT as `0x${string}`, 2_500_000_000n] });
const context = (overrides: Partial<Parameters<typeof expressionContext>[0]> = {}) =>
  expressionContext({
    facts: { chainId: 8453, outflows: new Map([[TOKEN, 2_500_000_000n]]), destinations: [RECIPIENT] },
    to: TOKEN.toUpperCase().replace('0X', '0x'),
    data: transfer,
    withdrawal: false,
    now: new Date('2026-12-02T15:30:00Z'),
    assets: ASSETS,
    ...overrides,
  });
const judge = (source: string, ctx = context()) => {
  assert.equal(expressionProblem(source), undefined, source);
  return expressionRefuses(compileExpression(source), ctx);
};

describe('expression rules', () => {
  it('refuses at creation what does not parse, names an unknown variable, is not a boolean or is too long', () => {
    assert.match(expressionProblem('amounts["USDC"] <=')!, /Unexpected/);
    assert.match(expressionProblem('balance > 1.0')!, /Unknown variable: balance/);
    assert.match(expressionProblem('amounts["USDC"] + 1')!, /no such overload/);
    assert.equal(expressionProblem('size(destinations)'), 'must be a boolean expression (this one is int)');
    assert.match(expressionProblem(`${'true && '.repeat(EXPRESSION_MAX_LENGTH / 8)}true`)!, /longer than/);
    assert.match(expressionProblem(`${'['.repeat(40)}true${']'.repeat(40)}[0] == true`) ?? '', /depth|nest/i, 'nesting beyond the depth limit');
  });

  it('sees amounts in the asset’s units with every asset of the chain present, and allows when true', () => {
    assert.equal(judge('amounts["USDC"] == 2500.0 && amounts["ETH"] == 0.0'), undefined);
    assert.equal(judge('amounts["USDC"] <= 2500.0'), undefined);
    assert.match(judge('amounts["USDC"] <= 2499.999999')!, /is false/);
  });

  it('sees destinations, the called address and selector, the chain, whether it is a withdrawal, and the time', () => {
    assert.equal(judge(`destinations == ["${RECIPIENT}"] && to == "${TOKEN}" && selector == "0xa9059cbb" && chainId == 8453 && !withdrawal`), undefined);
    assert.equal(judge('now.getHours() == 15 && now.getHours("Europe/Berlin") == 16 && now > timestamp("2026-12-01T00:00:00Z")'), undefined);
    assert.equal(judge('selector == ""', context({ data: '0x' })), undefined);
    assert.equal(judge('withdrawal', context({ withdrawal: true })), undefined);
  });

  it('fails closed: an evaluation error refuses, naming the error', () => {
    assert.match(judge('amounts["DAI"] < 1.0')!, /failed: No such key: DAI/);
    assert.match(judge('1 / (size(destinations) - 1) == 0')!, /failed: division by zero/i);
  });
});
