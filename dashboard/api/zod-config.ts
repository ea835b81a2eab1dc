import { config } from 'zod';

/**
 * The dashboard's page allows no eval (CSP, and Trusted Types for `new Function`): zod is told to parse without
 * compiling, before it would probe for eval and set off a policy violation report. Imported by every screen that
 * parses with the contract's schemas (they come with zod); the shell does not load zod at all.
 */
config({ jitless: true });
