/**
 * The search page's behaviour (app.js, browser JavaScript type-checked by src/page/tsconfig.json
 * against the DOM). The worker never calls it: handlers/documents.ts serves its source text.
 */
export declare function app(): void;
