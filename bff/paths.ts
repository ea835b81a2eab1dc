import { fileURLToPath } from 'node:url';

/** Whether this runs compiled (`dist/bff/*.js`, what `npm start` runs) or from source under tsx (development, tests). */
const compiled = import.meta.url.endsWith('.js');

/**
 * The project's root folder, whichever way this runs. Files beside the modules (migrations, page assets, the RSA
 * worker) are copied into the build by `npm run build` and found relative to each module as before.
 */
export const PROJECT_ROOT = fileURLToPath(new URL(compiled ? '../../' : '../', import.meta.url));

/** The build this server belongs to (`dist/`, or `CHECKOUT_BUILD_DIR`'s folder): the widget is built into its `widget/`. */
export const BUILD_ROOT = fileURLToPath(new URL(compiled ? '../' : '../dist/', import.meta.url));
