/**
 * A tool's input schema as a Standard Schema with its JSON Schema (standardschema.dev, which the
 * AI SDK's `FlexibleSchema` accepts): made here, so the AI SDK entry imports nothing of `ai` and
 * serves AI SDK 6 and 7 alike.
 */
export interface ToolInputSchema<Input> {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (
      value: unknown,
    ) => { value: Input; issues?: undefined } | { issues: readonly { message: string }[] };
    readonly jsonSchema: {
      readonly input: (options: unknown) => Record<string, unknown>;
      readonly output: (options: unknown) => Record<string, unknown>;
    };
    readonly types?: { readonly input: Input; readonly output: Input } | undefined;
  };
}

/** The schema of an input that is one object with one string field, `field`, described by `jsonSchema`. */
export function stringFieldSchema<Field extends string>(
  field: Field,
  jsonSchema: object,
): ToolInputSchema<Record<Field, string>> {
  return {
    "~standard": {
      version: 1,
      vendor: "context-compactor",
      validate: (value) => {
        const text = (value as Record<string, unknown> | null)?.[field];
        return typeof text === "string"
          ? { value: { [field]: text } as Record<Field, string> }
          : { issues: [{ message: `Expected \`${field}\` to be a string` }] };
      },
      jsonSchema: { input: () => ({ ...jsonSchema }), output: () => ({ ...jsonSchema }) },
    },
  };
}
