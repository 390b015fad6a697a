/**
 * Staff-written page texts (imprint, privacy policy) in a few Markdown-like forms: blank lines
 * separate blocks, "# " and "## " start headings, lines starting with "- " make a list, other
 * lines are paragraphs (single line breaks kept). The result is data for React to render as
 * text, so whatever HTML the text contains is shown as written, never interpreted.
 */
export type MarkupBlock = { kind: "heading"; text: string } | { kind: "list"; items: string[] } | { kind: "paragraph"; lines: string[] };

export function parsePlainMarkup(source: string): MarkupBlock[] {
  const blocks: MarkupBlock[] = [];
  const chunks = source.replace(/\r\n?/g, "\n").split(/\n[ \t]*\n/);
  for (const chunk of chunks) {
    const lines = chunk
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => l !== "");
    let paragraph: string[] = [];
    let list: string[] = [];
    const flush = () => {
      if (paragraph.length) blocks.push({ kind: "paragraph", lines: paragraph });
      if (list.length) blocks.push({ kind: "list", items: list });
      paragraph = [];
      list = [];
    };
    for (const line of lines) {
      const heading = /^#{1,2}\s+(.*)$/.exec(line);
      const item = /^[-*]\s+(.*)$/.exec(line);
      if (heading) {
        flush();
        blocks.push({ kind: "heading", text: heading[1] });
      } else if (item) {
        if (paragraph.length) flush();
        list.push(item[1]);
      } else {
        if (list.length) flush();
        paragraph.push(line);
      }
    }
    flush();
  }
  return blocks;
}
