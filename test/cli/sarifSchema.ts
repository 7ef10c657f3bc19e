// A validator for the SARIF 2.1.0 JSON schema as OASIS publishes it: errata 01, a JSON Schema
// draft-04 document, vendored unchanged in test/schemas/sarif-schema-2.1.0.json from
// https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json
// (the same file as github.com/oasis-tcs/sarif-spec, sarif-2.1/schema/sarif-schema-2.1.0.json).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import ajvDraft04 from 'ajv-draft-04';
import ajvFormats from 'ajv-formats';

// CommonJS packages whose module object is also their default export's holder.
const Ajv04 = ajvDraft04.default;
const addFormats = ajvFormats.default;

type Validate = ((data: unknown) => boolean) & { errors?: unknown };

export function sarifValidator(): Validate {
  const schema = JSON.parse(readFileSync(resolve('test/schemas/sarif-schema-2.1.0.json'), 'utf8')) as object;
  // strict off: the schema uses draft-04 keywords Ajv's strict mode does not know, and that is the schema's right.
  const ajv = new Ajv04({ allErrors: true, strict: false });
  addFormats(ajv);
  return ajv.compile(schema);
}
