/** The adapter commands' lines of `gateway help` (kept apart so the CLI's usage text loads none of the kit). */
export const ADAPTER_USAGE = `  adapter:new <dir> --kind text|video  scaffold an outside adapter package
  adapter:test <dir>                   run the conformance kit against the package in <dir>`;
