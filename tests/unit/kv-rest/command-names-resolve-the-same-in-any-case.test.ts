// The command table finds a command by its lower-case and its upper-case name without lower-casing
// it first, and answers a found command with one lookup built once per spec. Any spelling of any
// command must still resolve to what its lower-case spelling resolves to, with the same errors.
import fc from 'fast-check';
import { allCommands, lookupCommand } from '../../../mock/kv-rest/command-table';

const names = allCommands().map((spec) => spec.name);

/** The name with each letter's case picked at random. */
const spelled = (name: string) =>
  fc.array(fc.boolean(), { minLength: name.length, maxLength: name.length }).map((upper) => [...name].map((char, index) => (upper[index] ? char.toUpperCase() : char)).join(''));

describe('command names resolve the same whatever their case', () => {
  it('finds every command, in every spelling, with every argument count, as its lower-case name', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...names).chain((name) => fc.tuple(fc.constant(name), spelled(name))),
        fc.array(fc.constantFrom('help', 'load', 'key', 'users', 'GETNAME', 'x'), { maxLength: 4 }),
        ([name, spelling], rest) => {
          expect(lookupCommand([spelling, ...rest])).toEqual(lookupCommand([name, ...rest]));
        },
      ),
      { numRuns: 5_000 },
    );
  });

  it('words unknown commands and wrong arity as before, naming the command as sent or in lower case', () => {
    expect(lookupCommand(['NOSUCH', 'a'])).toEqual({ ok: false, failure: 'unknown', error: "ERR unknown command 'NOSUCH', with args beginning with: 'a' " });
    expect(lookupCommand(['GET'])).toEqual({ ok: false, failure: 'arity', error: "ERR wrong number of arguments for 'get' command" });
    expect(lookupCommand(['Command'])).toEqual({
      ok: false,
      failure: 'arity',
      error: "ERR wrong number of arguments for 'command' command: the REST API needs a subcommand (try COMMAND HELP)",
    });
    expect(lookupCommand(['SCRIPT', 'NOPE'])).toEqual({ ok: false, failure: 'unknown', error: "ERR unknown subcommand 'NOPE'. Try SCRIPT HELP." });
  });

  it('answers each found command with the same spec object every time', () => {
    const first = lookupCommand(['GET', 'a']);
    const second = lookupCommand(['get', 'b']);
    expect(first.ok && second.ok && first.spec === second.spec).toBe(true);
  });
});
