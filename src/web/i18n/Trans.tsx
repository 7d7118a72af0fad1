import { cloneElement, Fragment, type ReactElement, type ReactNode } from "react";
import { useShownTexts, type TextKey } from "./index.ts";
import { interpolate, type TextValues } from "./translator.ts";

// A tag in a text: `<strong>{{appName}}</strong>` or `<about/>`.
const tag = /<(\w+)>(.*?)<\/\1>|<(\w+)\/>/gs;

interface TransProps {
  readonly i18nKey: TextKey;
  readonly values?: TextValues;
  /** The element each tag of the text becomes, by the tag's name; its words become its children. */
  readonly components: Readonly<Record<string, ReactElement>>;
}

/**
 * A text's words and elements: each tag becomes the element of its name. The tags are read from the
 * catalog's text before the values go in, so a value (an app's name, say) is only ever words.
 */
export function withMarkup(
  text: string,
  values: TextValues | undefined,
  components: TransProps["components"],
): ReactNode[] {
  const nodes: ReactNode[] = [];
  let end = 0;
  for (const match of text.matchAll(tag)) {
    nodes.push(interpolate(text.slice(end, match.index), values));
    const [whole, pairedName, inner, emptyName] = match;
    const component = components[pairedName ?? emptyName ?? ""];
    if (component === undefined) nodes.push(interpolate(whole, values));
    else if (inner === undefined) nodes.push(cloneElement(component, { key: match.index }));
    else nodes.push(cloneElement(component, { key: match.index }, interpolate(inner, values)));
    end = match.index + whole.length;
  }
  nodes.push(interpolate(text.slice(end), values));
  return nodes;
}

/** A translated text with markup (see {@link withMarkup}). */
export function Trans({ i18nKey, values, components }: TransProps) {
  const { text } = useShownTexts();
  return <Fragment>{withMarkup(text(i18nKey, values?.count), values, components)}</Fragment>;
}
