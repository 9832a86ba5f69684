/**
 * A scenario written inside the element's `<script type="text/yaml">`. The HTML parser ends a
 * script at the first `</script` in its text whatever the type, so a scenario holding
 * `</script><img src=x onerror=…>` copied verbatim into a host page runs script there. The
 * share dialog therefore escapes `&` and `<` as `&amp;` and `&lt;` and marks the script
 * `data-escaped`; the element decodes them. A hand-written script without the mark is read as
 * it stands. Either way the text may be indented to sit inside the element's markup.
 */
import type { EmbedView } from './embed-protocol.ts';

/** The attribute that says the script's text is escaped (written by the share dialog). */
export const ESCAPED_ATTRIBUTE = 'data-escaped';

/** Text safe inside a `<script>` element: it holds no `<` at all, so nothing can end or reopen a tag. */
export function escapeScriptText(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;');
}

/** The scenario text as written: the markup's indentation removed, and unescaped when marked. */
export function inlineScenarioText(raw: string, escaped: boolean): string {
  const text = dedent(raw);
  return escaped ? text.replace(/&(lt|amp);/g, (_, name: string) => (name === 'lt' ? '<' : '&')) : text;
}

/**
 * Removes the line break after the opening tag, the indentation before the closing one, and the
 * indentation all other lines share. Other blank lines stay: in a YAML block scalar kept with
 * `|+` they are part of the value.
 */
function dedent(raw: string): string {
  const lines = raw.split('\n');
  if (lines.length > 0 && lines[0]!.trim() === '') lines.shift();
  if (lines.length > 0 && lines[lines.length - 1]!.trim() === '') lines.pop();
  const indents = lines.filter((line) => line.trim() !== '').map((line) => /^[ \t]*/.exec(line)![0].length);
  const common = indents.length === 0 ? 0 : Math.min(...indents);
  return lines.map((line) => line.slice(Math.min(common, /^[ \t]*/.exec(line)![0].length))).join('\n');
}

/** The `<checkpoint-playground>` snippet the share dialog offers, the scenario inline and escaped. */
export function elementSnippet(moduleUrl: string, view: EmbedView, yaml: string): string {
  // every line, the empty one after the final line break too: the element gives the text back exactly
  const body = escapeScriptText(yaml)
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
  return `<script type="module" src="${moduleUrl}"></script>\n<checkpoint-playground view="${view}">\n  <script type="text/yaml" ${ESCAPED_ATTRIBUTE}>\n${body}\n  </script>\n</checkpoint-playground>`;
}
