import { TextField } from "../../components/Field.tsx";

/** One input per template variable, with its description as the hint. */
export function ValueFields({
  variables,
  values,
  onChange,
}: {
  readonly variables: readonly { name: string; description: string }[];
  readonly values: Record<string, string>;
  readonly onChange: (values: Record<string, string>) => void;
}) {
  return variables.map((variable) => (
    <TextField
      key={variable.name}
      label={variable.name}
      hint={variable.description || undefined}
      className="font-mono"
      value={values[variable.name] ?? ""}
      onChange={(event) => onChange({ ...values, [variable.name]: event.target.value })}
    />
  ));
}
