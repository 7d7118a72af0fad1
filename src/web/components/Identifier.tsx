/** An ID as it is shown: in a monospace font, wrapped anywhere. */
export function Identifier({ value }: { readonly value: string }) {
  return <span className="font-mono break-all">{value}</span>;
}
