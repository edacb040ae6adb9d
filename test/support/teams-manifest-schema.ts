/**
 * The Teams app manifest schema that @microsoft/app-manifest bundles (v1.30, the current one Teams accepts), checked
 * offline with the validator that package uses for it: Ajv for JSON Schema draft-04, with the uri, email and regex
 * formats, all errors reported.
 */
import schema from '@microsoft/app-manifest/build/json-schemas/teams/v1.30/MicrosoftTeams.schema.json' with {
  type: 'json',
};
import ajvDraft04 from 'ajv-draft-04';
import ajvFormats from 'ajv-formats';

/** The manifestVersion the schema requires. */
export const SCHEMA_MANIFEST_VERSION: string = schema.properties.manifestVersion.const;

// Both are CommonJS modules whose export is also their `default`.
const ajv = new ajvDraft04.default({ allErrors: true, strictTypes: false });
ajvFormats.default(ajv, ['uri', 'email', 'regex']);
const validate = ajv.compile(schema);

/** What is wrong with a manifest by the schema, one line each; empty when it is valid. */
export function teamsManifestErrors(manifest: unknown): string[] {
  if (validate(manifest)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
}
