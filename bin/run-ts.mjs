#!/usr/bin/env node
// Runs a TypeScript entry file with tsx's loader: `node bin/run-ts.mjs FILE.ts [args]`.
import { register } from "tsx/esm/api";
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";

register();
const [, , entry, ...rest] = process.argv;
process.argv = [process.argv[0], resolve(entry), ...rest];
await import(pathToFileURL(resolve(entry)).href);
