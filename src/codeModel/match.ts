/**
 * A span's code location → the definition it names in one file's definitions: by function name, narrowed by its
 * class, struct or module (`container`), then by line when several remain; an anonymous function by line alone (the
 * innermost definition holding the line). Constructors (`<init>`, `.ctor`, `constructor`, `__init__`) match the
 * class's constructor.
 */
import type { CodeLocation } from './codeAttributes';
import type { Definition } from './definitionTypes';

export type SymbolMatch =
  | { kind: 'matched'; definition: Definition; by: 'name' | 'container' | 'line' }
  | { kind: 'ambiguous'; definitions: Definition[] }
  | { kind: 'none' };

const CONSTRUCTORS = new Set(['<init>', '.ctor', 'constructor', '__init__', 'initialize', 'new']);

function holds(d: Definition, line: number): boolean {
  return d.start <= line && line <= d.end;
}

/** The innermost definition holding the line (the shortest range). */
function innermost(defs: readonly Definition[], line: number): Definition | undefined {
  return defs.filter((d) => holds(d, line)).sort((a, b) => a.end - a.start - (b.end - b.start))[0];
}

export function matchDefinition(loc: CodeLocation, defs: readonly Definition[]): SymbolMatch {
  const callables = defs.filter((d) => d.kind !== 'class');
  if (loc.function === undefined) {
    const d = loc.line !== undefined ? innermost(callables, loc.line) : undefined;
    return d ? { kind: 'matched', definition: d, by: 'line' } : { kind: 'none' };
  }
  const fn = loc.function;
  let named = callables.filter(
    (d) => d.name === fn || (CONSTRUCTORS.has(fn) && (CONSTRUCTORS.has(d.name) || d.name === loc.container)),
  );
  if (named.length === 0) return { kind: 'none' };
  let by: 'name' | 'container' | 'line' = 'name';
  if (named.length > 1 && loc.container !== undefined) {
    const inContainer = named.filter((d) => d.container === loc.container);
    // A module-level function's "container" is its module (Python, Go packages): those without a class stay.
    const narrowed = inContainer.length > 0 ? inContainer : named.filter((d) => d.container === undefined);
    if (narrowed.length > 0 && narrowed.length < named.length) {
      named = narrowed;
      by = 'container';
    }
  }
  if (named.length === 1) return { kind: 'matched', definition: named[0] as Definition, by };
  const atLine = loc.line !== undefined ? innermost(named, loc.line) : undefined;
  if (atLine) return { kind: 'matched', definition: atLine, by: 'line' };
  return { kind: 'ambiguous', definitions: named };
}
