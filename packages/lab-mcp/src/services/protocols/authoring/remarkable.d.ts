// The part of remarkable (2.0.1) we use: the parser, its tokens, and the inline parser's skipToken (the
// step every closer search takes, which markdown-to-draft.ts meters); the package ships no types.
declare module "remarkable" {
  export interface Token {
    type: string;
    level: number;
    content?: string;
    children?: Token[];
    hLevel?: number;
    params?: string;
    href?: string;
  }
  export interface InlineState {
    pos: number;
    posMax: number;
  }
  export interface InlineParser {
    skipToken(state: InlineState): void;
  }
  export class Remarkable {
    constructor(preset?: string, options?: Record<string, unknown>);
    inline: InlineParser;
    block: { ruler: { disable(rule: string | string[]): void } };
    parse(markdown: string, env: Record<string, unknown>): Token[];
  }
}
