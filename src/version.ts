/** The tool's version, shown in reports; a unit test keeps it equal to package.json's. */
export const TOOL_NAME = "iggy-batch-explorer";
/** Semantic version of this build. */
export const TOOL_VERSION = "0.1.0";
