// The `Retry-Delay` expression: parsed once with jsep into an AST and evaluated by our own
// whitelist (numbers, `retried`, + - * / %, parentheses and the seed's functions), never eval.
import jsep from 'jsep';

// Maps, not plain objects: a lookup by a caller's name must never find `constructor` or `toString`.
const FUNCTIONS = new Map<string, { arity: number; apply: (...args: number[]) => number }>(Object.entries({
  pow: { arity: 2, apply: Math.pow },
  exp: { arity: 1, apply: Math.exp },
  sqrt: { arity: 1, apply: Math.sqrt },
  abs: { arity: 1, apply: Math.abs },
  floor: { arity: 1, apply: Math.floor },
  ceil: { arity: 1, apply: Math.ceil },
  round: { arity: 1, apply: Math.round },
  min: { arity: 2, apply: Math.min },
  max: { arity: 2, apply: Math.max },
}));
const OPERATORS = new Map<string, (a: number, b: number) => number>(Object.entries({
  '+': (a: number, b: number) => a + b,
  '-': (a: number, b: number) => a - b,
  '*': (a: number, b: number) => a * b,
  '/': (a: number, b: number) => a / b,
  '%': (a: number, b: number) => a % b,
}));

/** One day: the platform's longest wait between two attempts. */
const MAX_RETRY_DELAY_MS = 86_400_000;

export type RetryDelay = (retried: number) => number;

export class RetryDelayError extends Error {}

function compile(node: jsep.Expression): RetryDelay {
  switch (node.type) {
    case 'Literal': {
      const value = (node as jsep.Literal).value;
      if (typeof value !== 'number') throw new RetryDelayError(`only numbers are allowed, not ${JSON.stringify(value)}`);
      return () => value;
    }
    case 'Identifier': {
      const name = (node as jsep.Identifier).name;
      if (name !== 'retried') throw new RetryDelayError(`unknown variable "${name}": the only variable is retried`);
      return (retried) => retried;
    }
    case 'UnaryExpression': {
      const { operator, argument } = node as jsep.UnaryExpression;
      if (operator !== '-' && operator !== '+') throw new RetryDelayError(`operator "${operator}" is not allowed`);
      const inner = compile(argument);
      return operator === '-' ? (retried) => -inner(retried) : inner;
    }
    case 'BinaryExpression': {
      const { operator, left, right } = node as jsep.BinaryExpression;
      const apply = OPERATORS.get(operator);
      if (!apply) throw new RetryDelayError(`operator "${operator}" is not allowed: use + - * / %`);
      const [a, b] = [compile(left), compile(right)];
      return (retried) => apply(a(retried), b(retried));
    }
    case 'CallExpression': {
      const { callee, arguments: args } = node as jsep.CallExpression;
      const name = callee.type === 'Identifier' ? (callee as jsep.Identifier).name : '';
      const fn = FUNCTIONS.get(name);
      if (!fn) throw new RetryDelayError(`unknown function "${name || '?'}": use ${[...FUNCTIONS.keys()].join(', ')}`);
      if (args.length !== fn.arity) throw new RetryDelayError(`${name} takes ${fn.arity} argument${fn.arity > 1 ? 's' : ''}, not ${args.length}`);
      const compiled = args.map(compile);
      return (retried) => fn.apply(...compiled.map((arg) => arg(retried)));
    }
    default:
      throw new RetryDelayError(`${node.type} is not allowed in a retry delay`);
  }
}

/** Compiles an expression such as `pow(2, retried) * 1000` or `max(10000, retried * 500)`. */
export function parseRetryDelay(expression: string): RetryDelay {
  if (expression.length > 500) throw new RetryDelayError('the expression is longer than 500 characters');
  let ast: jsep.Expression;
  try {
    ast = jsep(expression);
  } catch (failure) {
    throw new RetryDelayError(`it does not parse: ${(failure as Error).message}`);
  }
  const evaluate = compile(ast);
  // Huge results (pow(10, 400) is Infinity) wait the longest delay the platform uses rather than
  // retrying at once; NaN (0 / 0) and negatives retry at once.
  return (retried) => {
    const value = evaluate(retried);
    if (Number.isNaN(value)) return 0;
    return Math.min(MAX_RETRY_DELAY_MS, Math.max(0, Math.round(value)));
  };
}

/** Without Retry-Delay, the platform's backoff: min(86400, e^(2.5 * (retried + 1))) seconds (12 s, 2m28s, 30m8s ...). */
export const exponentialBackoff: RetryDelay = (retried) => Math.round(Math.min(86_400, Math.exp(2.5 * (retried + 1))) * 1000);
