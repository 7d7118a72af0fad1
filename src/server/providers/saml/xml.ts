import { DOMParser } from "@xmldom/xmldom";

/** The document is not well-formed XML, or declares a DTD. */
export class MalformedXml extends Error {
  override name = "MalformedXml";
}

/**
 * Parses XML strictly: any error or warning (an unclosed or mismatched tag) is fatal. A document type declaration is refused before parsing:
 * SAML never needs one, and entity declarations are how XML bombs and external entities get in.
 */
export function parseXml(text: string): Document {
  if (/<!DOCTYPE/i.test(text)) throw new MalformedXml("a document type declaration is not allowed");
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
