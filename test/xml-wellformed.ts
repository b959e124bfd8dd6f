/**
 * A small XML well-formedness check for the SVG tests (Node has no XML parser): one root, tags
 * nested and closed, attributes quoted and unique, no raw `<` or `&` in text, only the five
 * predefined entities or character references, no character XML 1.0 forbids.
 */

/** An element as the check saw it: name, attributes, the text directly inside, children. */
export interface XmlElement {
  readonly name: string;
  readonly attrs: Record<string, string>;
  text: string;
  readonly children: XmlElement[];
}

const NAME = /^[A-Za-z_][\w.:-]*/;
const ENTITY = /^&(?:amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);/;
const decode = (s: string) =>
  s.replace(/&(amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);/g, (_, e: string) =>
    e === "amp"
      ? "&"
      : e === "lt"
        ? "<"
        : e === "gt"
          ? ">"
          : e === "quot"
            ? '"'
            : e === "apos"
              ? "'"
              : String.fromCodePoint(e[1] === "x" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10)),
  );

function checkText(s: string, at: number): void {
  // eslint-disable-next-line no-control-regex
  const bad = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/.exec(s);
  if (bad) throw new Error(`forbidden character U+${bad[0].charCodeAt(0).toString(16)} near ${at}`);
  for (let i = s.indexOf("&"); i >= 0; i = s.indexOf("&", i + 1)) {
    if (!ENTITY.test(s.slice(i))) throw new Error(`bare & near ${at + i}`);
  }
  if (s.includes("<")) throw new Error(`raw < near ${at}`);
}

/** Parses a document or throws with where it is not well-formed. */
export function parseXml(doc: string): XmlElement {
  let pos = 0;
  if (doc.startsWith("<?xml")) pos = doc.indexOf("?>") + 2;
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  while (pos < doc.length) {
    const lt = doc.indexOf("<", pos);
    const text = doc.slice(pos, lt < 0 ? doc.length : lt);
    checkText(text, pos);
    if (stack.length === 0 && text.trim() !== "") throw new Error(`text outside the root near ${pos}`);
    if (stack.length > 0) stack[stack.length - 1]!.text += decode(text);
    if (lt < 0) break;
    const gt = doc.indexOf(">", lt);
    if (gt < 0) throw new Error(`unclosed tag at ${lt}`);
    const tag = doc.slice(lt + 1, gt);
    pos = gt + 1;
    if (tag.startsWith("/")) {
      const open = stack.pop();
      if (!open || open.name !== tag.slice(1).trim()) throw new Error(`</${tag.slice(1)}> closes ${open?.name ?? "nothing"} at ${lt}`);
      continue;
    }
    const selfClosing = tag.endsWith("/");
    const inner = selfClosing ? tag.slice(0, -1) : tag;
    const name = NAME.exec(inner)?.[0];
    if (!name) throw new Error(`bad tag name at ${lt}`);
    const attrs: Record<string, string> = {};
    let rest = inner.slice(name.length);
    while (rest.trim() !== "") {
      const m = /^\s+([A-Za-z_][\w.:-]*)="([^"<]*)"/.exec(rest) ?? /^\s+([A-Za-z_][\w.:-]*)='([^'<]*)'/.exec(rest);
      if (!m) throw new Error(`bad attribute in <${name}> at ${lt}: ${rest.slice(0, 30)}`);
      if (m[1]! in attrs) throw new Error(`duplicate attribute ${m[1]} in <${name}> at ${lt}`);
      checkText(m[2]!, lt);
      attrs[m[1]!] = decode(m[2]!);
      rest = rest.slice(m[0].length);
    }
    const el: XmlElement = { name, attrs, text: "", children: [] };
    if (stack.length > 0) stack[stack.length - 1]!.children.push(el);
    else if (root) throw new Error(`second root element <${name}> at ${lt}`);
    else root = el;
    if (!selfClosing) stack.push(el);
  }
  if (stack.length > 0) throw new Error(`<${stack[stack.length - 1]!.name}> never closed`);
  if (!root) throw new Error("no root element");
  return root;
}

/** Every element of the tree, depth first. */
export function allElements(el: XmlElement): XmlElement[] {
  return [el, ...el.children.flatMap(allElements)];
}
