/** Who makes snapshots: this Context Lens (the version in package.json). */
import { version } from "../../../package.json";

export const CONTEXT_LENS_VERSION: string = version;
