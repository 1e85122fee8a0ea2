/** The Chromium executable, or undefined when none is installed. */
export declare function chromiumPath(): string | undefined;
/** What to do when it is missing, for an error message. */
export declare const chromiumHint: string;
