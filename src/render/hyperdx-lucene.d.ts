/** The parts of `@hyperdx/lucene` (a PEG.js Lucene grammar, MIT) the translator uses. */
declare module '@hyperdx/lucene' {
  export interface NodeTerm {
    field: string;
    term: string;
    quoted: boolean;
    regex?: boolean;
    prefix?: string | null;
  }
  export interface NodeRangedTerm {
    field: string;
    term_min: string;
    term_max: string;
    inclusive: 'both' | 'left' | 'right' | 'none';
  }
  export type Node = NodeTerm | NodeRangedTerm;
  export interface AST {
    left?: AST | Node;
    right?: AST | Node;
    operator?: string;
    start?: string;
    field?: string;
    parenthesized?: boolean;
  }
  export function parse(query: string): AST;
  const lucene: { parse: typeof parse };
  export default lucene;
}
