// The store's secret values and their masking live in store/ (the audit log uses them too).
export { MASK, scrub, secretValues } from '../store/secret-values.js';
