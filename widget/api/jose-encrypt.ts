/** The one piece of jose the widget needs, as its own module so the dynamic import tree-shakes the rest. */
export { CompactEncrypt } from 'jose';
