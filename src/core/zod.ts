/**
 * zod, configured once for every schema of the app. The page's Content Security Policy forbids `eval`, and zod
 * would otherwise probe `new Function` to compile object parsers, which the browser reports as a violation:
 * jitless, it parses with plain functions everywhere (browser, worker and CLI alike).
 */
import { z } from "zod";

z.config({ jitless: true });

export { z };
