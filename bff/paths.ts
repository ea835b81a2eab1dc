import { fileURLToPath } from 'node:url';

/**
 * The project's root folder, whether this module runs from source (`bff/paths.ts`, under tsx in development and
 * tests) or compiled (`dist/bff/paths.js`, what `npm start` runs). Files beside the modules (migrations, page
 * assets, the RSA worker) are copied into dist/ by the build and found relative to each module as before.
 */
export const PROJECT_ROOT = fileURLToPath(new URL(import.meta.url.endsWith('.js') ? '../../' : '../', import.meta.url));
