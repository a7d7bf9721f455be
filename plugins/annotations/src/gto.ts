// GTO text, the form RV saves its sessions in (a `GTOa (4)` header, then objects):
//
//   name : protocol (version) { components }       an object (a node of the session)
//   name { properties and components }             a component; its name may be quoted ("pen:3:15:alice")
//   type[dims] name = value                        a property: a number, a word, a "string" or [ nested lists ]
//   # a comment, to the end of the line
//
// The reader is tolerant of what it does not need (interpretation strings after a colon, the header's absence,
// commas between values) and strict about structure: a broken file is one error naming its line.

export type GtoValue = number | string | GtoValue[];

export interface GtoProperty {
  type: string;
  name: string;
  /** Undefined for a property declared without a value. */
  value?: GtoValue;
}

export interface GtoComponent {
  name: string;
  properties: Map<string, GtoProperty>;
  components: GtoComponent[];
}

export interface GtoObject {
  name: string;
  protocol: string;
  components: GtoComponent[];
}

export class GtoSyntaxError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`);
  }
}

interface Token {
  kind: 'word' | 'string' | 'mark';
  text: string;
  line: number;
}

/** Lists and components nest this deep at most: enough for any session, too little to overflow the stack. */
const MAX_DEPTH = 64;
// Whitespace, a comment, a mark or a word; strings are read apart (see quoted), as a regular expression would
// overflow the stack on a long one.
const LEXEME = /(\s+)|(#[^\n]*)|([{}[\]()=:,])|([^\s{}[\]()=:,"#]+)/y;
const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i;
const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r' };

/** The tokens of a text, read as the parser asks for them (a whole session's tokens at once would be large). */
function tokens(text: string) {
  const lexeme = new RegExp(LEXEME);
  const ahead: Token[] = [];
  let line = 1;
  const lines = (from: number, to: number) => {
    for (let i = text.indexOf('\n', from); i !== -1 && i < to; i = text.indexOf('\n', i + 1)) line++;
  };
  /** The string that starts at the quote at `from`, its escapes resolved; lexeme.lastIndex moves past it. */
  const quoted = (from: number): string => {
    let value = '';
    let start = from + 1;
    for (let i = start; ; i++) {
      if (i >= text.length) throw new GtoSyntaxError(line, 'a string is not closed');
      if (text[i] === '"') {
        lines(from, i);
        lexeme.lastIndex = i + 1;
        return value + text.slice(start, i);
      }
      if (text[i] === '\\') {
        value += text.slice(start, i) + (ESCAPES[text[i + 1]!] ?? text[i + 1] ?? '');
        start = ++i + 1;
      }
    }
  };
  const read = (): Token | undefined => {
    while (lexeme.lastIndex < text.length) {
      const from = lexeme.lastIndex;
      const match = lexeme.exec(text);
      const at = line;
      if (!match) return { kind: 'string', text: quoted(from), line: at };
      const [whole, , , mark, word] = match;
      lines(from, from + whole.length);
      if (mark !== undefined) return { kind: 'mark', text: mark, line: at };
      if (word !== undefined) return { kind: 'word', text: word, line: at };
    }
    return undefined;
  };
  const peek = (offset = 0): Token | undefined => {
    while (ahead.length <= offset) {
      const token = read();
      if (!token) return undefined;
      ahead.push(token);
    }
    return ahead[offset];
  };
  const skip = (count = 1) => {
    for (let i = 0; i < count && peek(); i++) ahead.shift();
  };
  // line: that of the next token, else the last one read.
  return { peek, skip, line: () => ahead[0]?.line ?? line };
}

/** The objects of a GTO text file; throws GtoSyntaxError naming the line where it stops making sense. */
export function parseGto(text: string): GtoObject[] {
  const stream = tokens(text);
  const { peek, skip } = stream;
  const isMark = (mark: string, ahead = 0) => peek(ahead)?.kind === 'mark' && peek(ahead)?.text === mark;
  const fail = (message: string): never => {
    const next = peek();
    throw new GtoSyntaxError(stream.line(), `${message}${next ? `, not ${next.text.slice(0, 40)}` : ''}`);
  };
  const expectMark = (mark: string, what: string) =>
    isMark(mark) ? skip() : fail(`${what} needs "${mark}"`);
  const name = (what: string): string => {
    const token = peek();
    if (!token || token.kind === 'mark') return fail(`expected ${what}`);
    skip();
    return token.text;
  };
  const skipInterpretation = () => {
    if (isMark(':')) skip(2);
  };

  const value = (depth: number): GtoValue => {
    if (depth > MAX_DEPTH) fail(`values nest deeper than ${MAX_DEPTH} levels`);
    const token = peek();
    if (!token || (token.kind === 'mark' && token.text !== '[')) return fail('expected a value');
    skip();
    if (token.kind === 'string') return token.text;
    if (token.kind === 'word') return NUMBER.test(token.text) ? Number(token.text) : token.text;
    const list: GtoValue[] = [];
    while (!isMark(']')) {
      if (!peek()) fail('a list is not closed');
      if (isMark(',')) skip();
      else list.push(value(depth + 1));
    }
    skip();
    return list;
  };

  const property = (): GtoProperty => {
    const type = name('a property type');
    // Its dimensions (float[2], float[4,4]) say nothing the values themselves do not.
    while (isMark('[')) {
      do skip();
      while (peek() && !isMark(']'));
      if (!peek()) fail('a property type is not closed');
      skip();
    }
    const property: GtoProperty = { type, name: name('a property name') };
    skipInterpretation();
    if (isMark('=')) {
      skip();
      property.value = value(0);
    }
    return property;
  };

  const startsComponent = () =>
    peek()?.kind !== 'mark' && (isMark('{', 1) || (isMark(':', 1) && isMark('{', 3)));

  const component = (depth: number): GtoComponent => {
    if (depth > MAX_DEPTH) fail(`components nest deeper than ${MAX_DEPTH} levels`);
    const found: GtoComponent = { name: name('a component name'), properties: new Map(), components: [] };
    skipInterpretation();
    expectMark('{', `component ${found.name}`);
    while (!isMark('}')) {
      if (!peek()) fail(`component ${found.name} is not closed`);
      if (startsComponent()) found.components.push(component(depth + 1));
      else {
        const read = property();
        found.properties.set(read.name, read);
      }
    }
    skip();
    return found;
  };

  const object = (): GtoObject => {
    const found: GtoObject = { name: name('an object name'), protocol: '', components: [] };
    if (isMark(':')) {
      skip();
      found.protocol = name(`the protocol of ${found.name}`);
    }
    if (isMark('(')) {
      if (!isMark(')', 2)) fail(`the protocol version of ${found.name} needs ")"`);
      skip(3);
    }
    expectMark('{', `object ${found.name}`);
    while (!isMark('}')) {
      if (!peek()) fail(`object ${found.name} is not closed`);
      found.components.push(component(1));
    }
    skip();
    return found;
  };

  if (peek()?.text === 'GTOa' && isMark('(', 1) && isMark(')', 3)) skip(4);
  const objects: GtoObject[] = [];
  while (peek()) objects.push(object());
  return objects;
}
