import { DOMParser } from "@xmldom/xmldom";
import type { XmlLimits } from "../../../common/limits.ts";

/** The document is not well-formed XML, declares a DTD, or is larger than its limits allow. */
export class MalformedXml extends Error {
  override name = "MalformedXml";
}

/** The index of the `>` ending the start tag that begins at `start`, skipping quoted attribute values. */
function startTagEnd(text: string, start: number): number {
  const special = /[>"']/g;
  special.lastIndex = start + 1;
  for (let match = special.exec(text); match; match = special.exec(text)) {
    if (match[0] === ">") return match.index;
    const closing = text.indexOf(match[0], match.index + 1);
    if (closing === -1) return -1;
    special.lastIndex = closing + 1;
  }
  return -1;
}

/** The index of the last character of `terminator` after `from`, or -1. */
function endOf(text: string, terminator: string, from: number): number {
  const found = text.indexOf(terminator, from);
  return found === -1 ? -1 : found + terminator.length - 1;
}

/**
 * Refuses a document beyond `limits`, in one pass over the text and before any parser sees it. A
 * document type declaration is refused too: SAML never needs one, and entity declarations are how XML
 * bombs and external entities get in. This only measures: what it lets through is parsed strictly.
 */
export function checkXmlShape(text: string, limits: XmlLimits): void {
  if (Buffer.byteLength(text) > limits.maxBytes)
    throw new MalformedXml(`the document is larger than ${limits.maxBytes} bytes`);
  // The children counted so far of each open element, the document's own first.
  const children = [0];
  let elements = 0;
  for (let at = text.indexOf("<"); at !== -1;) {
    let end: number;
    if (text.startsWith("</", at)) {
      if (children.length === 1) throw new MalformedXml("an end tag closes no element");
      children.pop();
      end = text.indexOf(">", at);
    } else {
      elements += 1;
      const siblings = (children[children.length - 1] ?? 0) + 1;
      children[children.length - 1] = siblings;
      if (elements > limits.maxElements)
        throw new MalformedXml(`the document has more than ${limits.maxElements} elements`);
      if (siblings > limits.maxSiblings)
        throw new MalformedXml(`an element has more than ${limits.maxSiblings} children`);
      if (text.startsWith("<!--", at)) end = endOf(text, "-->", at + 4);
      else if (text.startsWith("<![CDATA[", at)) end = endOf(text, "]]>", at + 9);
      else if (text.startsWith("<?", at)) end = endOf(text, "?>", at + 2);
      else if (text.startsWith("<!", at))
        throw new MalformedXml("a document type declaration is not allowed");
      else {
        // The elements open around this one, and itself.
        if (children.length > limits.maxDepth)
          throw new MalformedXml(`the document is more than ${limits.maxDepth} elements deep`);
        end = startTagEnd(text, at);
        if (end !== -1 && text[end - 1] !== "/") children.push(0);
      }
    }
    if (end === -1) throw new MalformedXml("the document ends inside a tag");
    at = text.indexOf("<", end + 1);
  }
}

/**
 * Parses XML strictly: any error or warning (an unclosed or mismatched tag) is fatal. The document is
 * first held to `limits` (see `checkXmlShape`).
 */
export function parseXml(text: string, limits: XmlLimits): Document {
  checkXmlShape(text, limits);
  const fail = (message: unknown) => {
    throw new MalformedXml(String(message));
  };
  const parser = new DOMParser({ errorHandler: { warning: fail, error: fail, fatalError: fail } });
  let document: Document;
  try {
    document = parser.parseFromString(text, "text/xml");
  } catch (error) {
    throw error instanceof MalformedXml ? error : new MalformedXml(String(error));
  }
  // The parser gives an empty document for input without any element.
  if (!Array.from(document.childNodes).some((node) => node.nodeType === 1))
    throw new MalformedXml("no root element");
  return document;
}

/** The element children of `parent` named `localName` in namespace `namespace`, in order. */
export function childElements(parent: Element, namespace: string, localName: string): Element[] {
  const found: Element[] = [];
  for (let node = parent.firstChild; node; node = node.nextSibling) {
    if (node.nodeType !== 1) continue;
    const element = node as Element;
    if (element.namespaceURI === namespace && element.localName === localName) found.push(element);
  }
  return found;
}
