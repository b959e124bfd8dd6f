// Writes docs/FIELDS.md from the field table (npm run docs); a unit test fails when it is stale.
import { writeFileSync } from "node:fs";
import { renderFieldDocs } from "../src/format/field-docs.ts";

writeFileSync(new URL("../docs/FIELDS.md", import.meta.url), renderFieldDocs());
console.log("wrote docs/FIELDS.md");
