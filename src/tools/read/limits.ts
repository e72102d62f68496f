/** Read's limits, in one place so the description and the refusals quote the same numbers. */
export const DEFAULT_LINE_LIMIT = 2000;
export const MAX_LINE_CHARS = 2000;
/** Text handed to the model in one call (about 25k tokens); longer windows stop at a line boundary. */
export const MAX_OUTPUT_CHARS = 100_000;
/** A text file larger than this is refused without offset/limit. */
export const MAX_TEXT_BYTES_WITHOUT_RANGE = 10 * 1024 * 1024;
/** Images above this would exceed the API's 5 MB limit once base64-encoded. */
export const MAX_IMAGE_BYTES = Math.floor(3.75 * 1024 * 1024);
export const MAX_PDF_BYTES = 32 * 1024 * 1024;
export const MAX_PDF_PAGES_PER_CALL = 20;
/** A PDF with more pages than this needs `pages`. */
export const MAX_PDF_PAGES_WITHOUT_RANGE = 10;
export const MAX_NOTEBOOK_BYTES = 16 * 1024 * 1024;
/** Text of one notebook cell output shown to the model. */
export const MAX_NOTEBOOK_OUTPUT_CHARS = 10_000;
