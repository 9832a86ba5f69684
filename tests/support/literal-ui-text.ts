/**
 * Finds text a user reads that is written into a view as a literal instead of coming from the
 * i18n layer (`t(...)`): in a Svelte file's markup (text, the attributes a reader or a screen
 * reader gets, and the literals an expression renders), and in TypeScript (a script block or a
 * .ts file under web/) where a literal goes straight to the screen: a chart's series or axis
 * `label`, a `title`, `textContent`, a canvas's `fillText`, `setAttribute('aria-label', …)`.
 *
 * A literal counts as natural language when, after the allowed words are taken out, a word of two
 * letters or more (or any Chinese) is left: see `naturalLanguage`.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'svelte/compiler';
import ts from 'typescript';

export interface LiteralText {
  readonly file: string;
  readonly line: number;
  /** where the text sits: `text`, `@title`, `{…}`, `label:`, `.textContent =`, … */
  readonly where: string;
  readonly text: string;
}

/**
 * Flink's own names that a view writes as they are, in every locale, because Flink prints them
 * so: the directories of its checkpoint storage (`chk-17/`, `shared/`, `taskowned/`, the
 * `_metadata` file). Dotted names (option keys such as execution.checkpointing.interval, metric
 * names such as rocksdb.block.cache.hit, message keys) and URLs are allowed by their form.
 */
const FLINK_NAMES = ['chk-', 'chk_', 'shared/', 'taskowned/', '_metadata'];

/** Units written after a value ("{n} ms", "{x}×"): the same in every locale, as Flink prints them. */
const UNIT = /^(?:ms|s|min|h|B|KB|MB|GB|TB|KiB|MiB|GiB|kb|mb|gb|rec\/s|x|×|%)$/;

/** The attributes whose text a reader sees or a screen reader speaks. */
const TEXT_ATTRIBUTES = new Set(['title', 'aria-label', 'aria-description', 'aria-roledescription', 'aria-valuetext', 'aria-placeholder', 'placeholder', 'alt', 'label']);
/** A component's props that carry text by their name (title, emptyText, playgroundText, summary…). */
const TEXT_PROP = /(?:text|title|label|summary|caption|description|placeholder|message|heading)$/i;
/** Elements whose content is code, shown as written. */
const CODE_ELEMENTS = new Set(['code', 'kbd', 'pre', 'samp']);

/** Properties and DOM fields that put a TypeScript literal on the screen. */
const TEXT_PROPERTIES = new Set(['label', 'title', 'ariaLabel', 'placeholder', 'alt', 'caption', 'emptyText', 'summary', 'description']);
const TEXT_FIELDS = new Set(['textContent', 'innerText', 'title', 'ariaLabel', 'placeholder', 'alt']);
const DRAWN_TEXT = new Set(['fillText', 'strokeText']);

/** Whether `text` holds words for a reader once Flink's names, dotted keys, URLs, numbers and units are taken out. */
export function naturalLanguage(text: string): boolean {
  let rest = text.replace(/\b[a-z][a-z+.-]*:\/\/\S*/gi, ' ').replace(/[A-Za-z_][\w-]*(?:\.[\w-]+)+/g, ' ');
  for (const name of FLINK_NAMES) rest = rest.replaceAll(name, ' ');
  if (/\p{Script=Han}/u.test(rest)) return true;
  return rest
    .split(/[^\p{L}\d/%×]+/u)
    .some((word) => /\p{L}{2,}/u.test(word) && !UNIT.test(word.replace(/^\d+(?:\.\d+)?/, '')));
}

// --- Svelte markup -------------------------------------------------------------------------

type EsNode = { type: string; start?: number; [key: string]: unknown };

/** The string literals an expression renders as it is (not the ones it compares, indexes or passes to a call). */
function renderedLiterals(node: EsNode | null | undefined): string[] {
  if (!node) return [];
  switch (node.type) {
    case 'Literal':
      return typeof node['value'] === 'string' ? [node['value']] : [];
    case 'TemplateLiteral':
      return [
        ...(node['quasis'] as Array<{ value: { cooked: string } }>).map((quasi) => quasi.value.cooked),
        ...(node['expressions'] as EsNode[]).flatMap(renderedLiterals),
      ];
    case 'ConditionalExpression':
      return [...renderedLiterals(node['consequent'] as EsNode), ...renderedLiterals(node['alternate'] as EsNode)];
    case 'LogicalExpression':
      // `a && 'text'` renders the right side only; `a || 'text'` and `a ?? 'text'` either
      return [...(node['operator'] === '&&' ? [] : renderedLiterals(node['left'] as EsNode)), ...renderedLiterals(node['right'] as EsNode)];
    case 'BinaryExpression':
      return node['operator'] === '+' ? [...renderedLiterals(node['left'] as EsNode), ...renderedLiterals(node['right'] as EsNode)] : [];
    case 'TSAsExpression':
    case 'TSNonNullExpression':
    case 'TSSatisfiesExpression':
      return renderedLiterals(node['expression'] as EsNode);
    default:
      return [];
  }
}

interface SvelteAttribute {
  type: string;
  name: string;
  start: number;
  value: true | EsNode | EsNode[];
}

function lineAt(source: string, offset: number): number {
  return source.slice(0, offset).split('\n').length;
}

/** The attribute's literal text: its static parts and what its expressions render. */
function attributeTexts(attribute: SvelteAttribute): string[] {
  if (attribute.value === true) return [];
  const parts = Array.isArray(attribute.value) ? attribute.value : [attribute.value];
  return parts.flatMap((part) => (part.type === 'Text' ? [part['data'] as string] : renderedLiterals(part['expression'] as EsNode)));
}

function markupLiterals(file: string, source: string, fragment: unknown): LiteralText[] {
  const found: LiteralText[] = [];
  const add = (node: EsNode, where: string, texts: string[]) => {
    for (const text of texts) if (naturalLanguage(text)) found.push({ file, line: lineAt(source, node.start ?? 0), where, text: text.trim() });
  };
  const walk = (node: unknown, inCode: boolean): void => {
    if (Array.isArray(node)) return node.forEach((child) => walk(child, inCode));
    if (!node || typeof node !== 'object') return;
    const n = node as EsNode;
    if (!inCode && n.type === 'Text') add(n, 'text', [n['data'] as string]);
    if (!inCode && (n.type === 'ExpressionTag' || n.type === 'HtmlTag')) add(n, '{…}', renderedLiterals(n['expression'] as EsNode));
    const attributes = n['attributes'] as SvelteAttribute[] | undefined;
    if (attributes) {
      const isComponent = n.type === 'Component' || n.type === 'SvelteComponent';
      for (const attribute of attributes) {
        if (attribute.type !== 'Attribute') continue;
        if (isComponent ? TEXT_PROP.test(attribute.name) : TEXT_ATTRIBUTES.has(attribute.name)) add(attribute as unknown as EsNode, `@${attribute.name}`, attributeTexts(attribute));
      }
    }
    const code = inCode || (n.type === 'RegularElement' && CODE_ELEMENTS.has(n['name'] as string));
    for (const [key, child] of Object.entries(n)) {
      // expressions are read above, where they render; an {#each}'s list or an {#if}'s test does not
      if (key === 'attributes' || key === 'metadata' || key === 'expression' || key === 'test' || key === 'context' || key === 'key') continue;
      if (child && typeof child === 'object') walk(child, code);
    }
  };
  walk(fragment, false);
  return found;
}

// --- TypeScript ----------------------------------------------------------------------------

function tsRenderedLiterals(node: ts.Expression): string[] {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [node.text];
  if (ts.isTemplateExpression(node)) return [node.head.text, ...node.templateSpans.flatMap((span) => [span.literal.text, ...tsRenderedLiterals(span.expression)])];
  if (ts.isConditionalExpression(node)) return [...tsRenderedLiterals(node.whenTrue), ...tsRenderedLiterals(node.whenFalse)];
  if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isSatisfiesExpression(node)) return tsRenderedLiterals(node.expression);
  if (ts.isBinaryExpression(node)) {
    const kind = node.operatorToken.kind;
    if (kind === ts.SyntaxKind.AmpersandAmpersandToken) return tsRenderedLiterals(node.right);
    if (kind === ts.SyntaxKind.BarBarToken || kind === ts.SyntaxKind.QuestionQuestionToken || kind === ts.SyntaxKind.PlusToken) {
      return [...tsRenderedLiterals(node.left), ...tsRenderedLiterals(node.right)];
    }
  }
  return [];
}

function propertyName(name: ts.PropertyName): string {
  return ts.isIdentifier(name) || ts.isStringLiteral(name) ? name.text : '';
}

/** Where a literal goes to the screen in TypeScript, and what goes there. */
function textSink(node: ts.Node): { where: string; value: ts.Expression } | undefined {
  if (ts.isPropertyAssignment(node) && TEXT_PROPERTIES.has(propertyName(node.name))) return { where: `${propertyName(node.name)}:`, value: node.initializer };
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isPropertyAccessExpression(node.left) && TEXT_FIELDS.has(node.left.name.text)) {
    return { where: `.${node.left.name.text} =`, value: node.right };
  }
  if (!ts.isCallExpression(node) || !ts.isPropertyAccessExpression(node.expression)) return undefined;
  const method = node.expression.name.text;
  const [first, second] = node.arguments;
  if (DRAWN_TEXT.has(method) && first) return { where: `${method}(…)`, value: first };
  if (method === 'setAttribute' && first && second && ts.isStringLiteral(first) && TEXT_ATTRIBUTES.has(first.text)) return { where: `setAttribute('${first.text}', …)`, value: second };
  return undefined;
}

function scriptLiterals(file: string, code: string, firstLine: number): LiteralText[] {
  const found: LiteralText[] = [];
  const sourceFile = ts.createSourceFile(file, code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const visit = (node: ts.Node): void => {
    const sink = textSink(node);
    for (const text of sink ? tsRenderedLiterals(sink.value) : []) {
      if (!naturalLanguage(text)) continue;
      const line = firstLine + sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile)).line;
      found.push({ file, line, where: sink!.where, text: text.trim() });
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return found;
}

/** Every literal a user would read in `file` (a .svelte or .ts file, its path from the repository root). */
export function literalUiText(file: string): LiteralText[] {
  const source = readFileSync(file, 'utf8');
  if (!file.endsWith('.svelte')) return scriptLiterals(file, source, 1);
  const ast = parse(source, { modern: true });
  const scripts = [ast.instance, ast.module].flatMap((script) => {
    if (!script) return [];
    const content = script.content as unknown as { start: number; end: number };
    return scriptLiterals(file, source.slice(content.start, content.end), lineAt(source, content.start));
  });
  return [...markupLiterals(file, source, ast.fragment), ...scripts];
}
